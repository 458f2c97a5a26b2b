import { decodeXmlReferences, xmlElement } from '@fulfil/core/xml';
import type { Shape } from './generated/index.js';

/**
 * The XML of the service's API, as far as a client needs it: request bodies under `<request>`,
 * response documents under `<response>`, list entries as `<item>`. Decoding is typed by the
 * shape of the expected resource, never guessed: `<order_id>000123</order_id>` stays text.
 */

/** A request body as the service reads XML: `<?xml version="1.0"?><request>…</request>`. */
export function encodeXmlRequest(body: object): string {
  return `<?xml version="1.0"?>\n${xmlElement('request', body)}`;
}

/** One element of a parsed document: its name, its child elements and its text. */
export interface XmlElement {
  name: string;
  children: XmlElement[];
  text: string;
}

/** The malformed or unexpected XML a client cannot read. */
export class XmlDecodeError extends Error {
  override readonly name = 'XmlDecodeError';
}

function indexAfter(text: string, marker: string, from: number): number {
  const at = text.indexOf(marker, from);
  if (at === -1) throw new XmlDecodeError(`unterminated markup: ${marker} expected`);
  return at + marker.length;
}

/**
 * Parses a document into its root element. Declarations, processing instructions, comments and
 * attributes are skipped; a DOCTYPE is refused, so no entity is ever expanded.
 */
export function parseXml(text: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('<', at);
    const top = stack[stack.length - 1];
    const between = text.slice(at, open === -1 ? text.length : open);
    if (top) top.text += decodeXmlReferences(between);
    else if (between.trim() !== '') throw new XmlDecodeError('text outside the root element');
    if (open === -1) break;
    if (text.startsWith('<?', open)) {
      at = indexAfter(text, '?>', open);
    } else if (text.startsWith('<!--', open)) {
      at = indexAfter(text, '-->', open);
    } else if (text.startsWith('<![CDATA[', open)) {
      const end = indexAfter(text, ']]>', open);
      if (!top) throw new XmlDecodeError('CDATA outside the root element');
      top.text += text.slice(open + '<![CDATA['.length, end - ']]>'.length);
      at = end;
    } else if (text.startsWith('<!', open)) {
      throw new XmlDecodeError('a DOCTYPE or other declaration is not accepted');
    } else {
      const end = indexAfter(text, '>', open);
      const tag = text.slice(open + 1, end - 1);
      at = end;
      if (tag.startsWith('/')) {
        const name = tag.slice(1).trim();
        const closed = stack.pop();
        if (!closed || closed.name !== name) throw new XmlDecodeError(`unexpected </${name}>`);
        continue;
      }
      const selfClosing = tag.endsWith('/');
      const name = (selfClosing ? tag.slice(0, -1) : tag).trim().split(/\s/, 1)[0] ?? '';
      if (name === '') throw new XmlDecodeError('an element without a name');
      const node: XmlElement = { name, children: [], text: '' };
      if (top) top.children.push(node);
      else if (root) throw new XmlDecodeError('more than one root element');
      else root = node;
      if (!selfClosing) stack.push(node);
    }
  }
  if (stack.length > 0)
    throw new XmlDecodeError(`<${stack[stack.length - 1]?.name}> is not closed`);
  if (!root) throw new XmlDecodeError('no root element');
  return root;
}

/** An element the shape does not know (a field added later): its text, or its children by name. */
function untyped(node: XmlElement): unknown {
  if (node.children.length === 0) return node.text;
  return Object.fromEntries(node.children.map((child) => [child.name, untyped(child)]));
}

/** The value of an element, typed by the shape of what it holds. */
export function decodeElement(node: XmlElement, shape: Shape): unknown {
  if (Array.isArray(shape)) {
    const [entry] = shape as readonly [Shape];
    return node.children.map((child) => decodeElement(child, entry));
  }
  if (shape === 'string') return node.text;
  if (shape === 'number') {
    const value = Number(node.text.trim());
    if (node.text.trim() === '' || !Number.isFinite(value)) {
      throw new XmlDecodeError(`<${node.name}> holds "${node.text}", not a number`);
    }
    return value;
  }
  if (shape === 'boolean') {
    const text = node.text.trim();
    if (text !== 'true' && text !== 'false') {
      throw new XmlDecodeError(`<${node.name}> holds "${node.text}", not true or false`);
    }
    return text === 'true';
  }
  const fields = shape as { readonly [key: string]: Shape };
  const result: Record<string, unknown> = {};
  for (const child of node.children) {
    const field = Object.hasOwn(fields, child.name) ? fields[child.name] : undefined;
    result[child.name] = field === undefined ? untyped(child) : decodeElement(child, field);
  }
  return result;
}

/** A `<response>` document as the value of the given shape. */
export function decodeXmlResponse(text: string, shape: Shape): unknown {
  const root = parseXml(text);
  if (root.name !== 'response') throw new XmlDecodeError(`root <${root.name}>, not <response>`);
  return decodeElement(root, shape);
}
