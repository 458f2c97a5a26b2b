import { xmlElement } from '@fulfil/core/xml';
import { undecodableBody } from './errors.js';
import { readXmlDocument, type XmlReadLimits } from './xml-reader.js';

/**
 * XML as docs/api.md shapes it: requests under `<request>`, responses under `<response>`, array
 * entries as `<item>` elements. Nothing is ever expanded: a DOCTYPE or entity declaration is
 * refused before parsing, and only the five predefined entities and character references are
 * decoded.
 */

const REQUEST_ROOT = 'request';
const RESPONSE_ROOT = 'response';

/**
 * What one XML request may cost. Stock batches are the largest legitimate bodies: 10,000 items
 * (the most a batch may hold) of 4 elements each, plus the envelope, fit in the element count
 * with room for a few unknown fields per item.
 */
export const DEFAULT_XML_LIMITS: XmlReadLimits = { elements: 100_000, depth: 16 };

const DECLARATION = /<!(DOCTYPE|ENTITY)/i;

/**
 * Parses an XML request body into a tree of strings: elements become fields, repeated elements
 * arrays, empty elements "". Throws a 400 HttpError for a DOCTYPE or entity declaration,
 * malformed XML, nesting past `limits.depth` or a root other than `<request>`; a 413 for more
 * than `limits.elements` elements.
 */
export async function parseXmlRequest(text: string, limits = DEFAULT_XML_LIMITS): Promise<unknown> {
  if (DECLARATION.test(text)) {
    throw undecodableBody('XML with a DOCTYPE or entity declaration is not accepted.');
  }
  const root = await readXmlDocument(text, limits);
  const names = Object.keys(root);
  if (names.length !== 1 || names[0] !== REQUEST_ROOT) {
    throw undecodableBody(
      'The XML body must have the single root element <%fieldValue>.',
      REQUEST_ROOT,
    );
  }
  const body = root[REQUEST_ROOT];
  return body === '' ? {} : body;
}

/** A response document: `<?xml version="1.0"?><response>…</response>`; absent fields omitted. */
export function encodeXmlResponse(value: unknown): string {
  const root = xmlElement(RESPONSE_ROOT, value) || `<${RESPONSE_ROOT}></${RESPONSE_ROOT}>`;
  return `<?xml version="1.0"?>\n${root}`;
}
