import { XMLParser } from 'fast-xml-parser';
import { undecodableBody } from './errors.js';

/**
 * XML as DECISIONS §1 shapes it: requests under `<request>`, responses under `<response>`, array
 * entries as `<item>` elements. Nothing is ever expanded: a DOCTYPE or entity declaration is
 * refused before parsing, and only the five predefined entities and character references are
 * decoded.
 */

const REQUEST_ROOT = 'request';
const RESPONSE_ROOT = 'response';
const TEXT = '#text';
const CDATA = '#cdata';

const PREDEFINED: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
};

/** Replaces the predefined entities and character references; anything else stays as written. */
function decodeReferences(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g, (whole, name: string) => {
    if (!name.startsWith('#')) return PREDEFINED[name] ?? whole;
    const codePoint = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
  });
}

const parser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  processEntities: false,
  htmlEntities: false,
  trimValues: true,
  cdataPropName: CDATA,
  // Called for text nodes; CDATA sections keep their raw text since they sit under CDATA.
  tagValueProcessor: (_name, value) => decodeReferences(value),
});

/** Collapses `{ '#text': …, '#cdata': … }` leaves into their text. */
function flatten(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(flatten);
  if (typeof node !== 'object' || node === null) return node;
  const record = node as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 0 && keys.every((key) => key === TEXT || key === CDATA)) {
    return `${record[TEXT] ?? ''}${record[CDATA] ?? ''}`;
  }
  const result: Record<string, unknown> = {};
  for (const key of keys) if (key !== TEXT) result[key] = flatten(record[key]);
  return result;
}

const DECLARATION = /<!(DOCTYPE|ENTITY)/i;

/**
 * Parses an XML request body into a tree of strings: elements become fields, repeated elements
 * arrays, empty elements "". Throws a 400 HttpError for a DOCTYPE or entity declaration,
 * malformed XML or a root other than `<request>`.
 */
export function parseXmlRequest(text: string): unknown {
  if (DECLARATION.test(text)) {
    throw undecodableBody('XML with a DOCTYPE or entity declaration is not accepted.');
  }
  let document: unknown;
  try {
    document = parser.parse(text, true);
  } catch (error) {
    throw undecodableBody(
      'The request body is not well-formed XML: %fieldValue',
      (error as Error).message,
    );
  }
  const root = flatten(document) as Record<string, unknown>;
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

// Characters XML 1.0 cannot carry at all; they are replaced rather than producing a broken document.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function escapeText(text: string): string {
  return text
    .replace(NOT_XML_CHAR, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function element(name: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) {
    return `<${name}>${value.map((entry) => element('item', entry)).join('')}</${name}>`;
  }
  if (typeof value === 'object') {
    const children = Object.entries(value as Record<string, unknown>)
      .map(([key, child]) => element(key, child))
      .join('');
    return `<${name}>${children}</${name}>`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return '';
  return `<${name}>${escapeText(String(value))}</${name}>`;
}

/** A response document: `<?xml version="1.0"?><response>…</response>`; absent fields omitted. */
export function encodeXmlResponse(value: unknown): string {
  const root = element(RESPONSE_ROOT, value) || `<${RESPONSE_ROOT}></${RESPONSE_ROOT}>`;
  return `<?xml version="1.0"?>\n${root}`;
}
