import { HttpError, undecodableBody } from './errors.js';
import { assertJsonValuesWithin, DEFAULT_JSON_VALUES } from './json-cost.js';
import { parseContentType, requestFormat } from './media.js';
import { header } from './request-parts.js';
import type { Operation } from './routes.js';
import { coerceBySchema } from './schema-coerce.js';
import type { HttpRequest } from './types.js';
import { parseXmlRequest } from './xml.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/** The body as a value: JSON as it is, XML typed by the operation's request schema. */
export async function decodeBody(
  request: HttpRequest,
  operation: Pick<Operation, 'request'>,
): Promise<unknown> {
  const contentType = parseContentType(header(request.headers, 'content-type'));
  const format = contentType ? requestFormat(contentType.mediaType) : null;
  if (!contentType || !format) {
    throw new HttpError(
      415,
      'Content type %fieldValue is not supported: send application/json or application/xml.',
      [{ fieldName: 'Content-Type', fieldValue: contentType?.mediaType ?? '(none)' }],
    );
  }
  if (contentType.charset !== null && !CHARSETS.has(contentType.charset)) {
    throw new HttpError(415, 'Charset %fieldValue is not supported: send UTF-8.', [
      { fieldName: 'Content-Type', fieldValue: contentType.charset },
    ]);
  }
  let text: string;
  try {
    text = UTF8.decode(request.body);
  } catch {
    throw undecodableBody('The request body is not valid UTF-8.');
  }
  if (format === 'xml') {
    const tree = await parseXmlRequest(text);
    return operation.request ? coerceBySchema(operation.request, tree) : tree;
  }
  await assertJsonValuesWithin(text, DEFAULT_JSON_VALUES);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw undecodableBody(
      'The request body is not valid JSON: %fieldValue',
      (error as Error).message,
    );
  }
}
