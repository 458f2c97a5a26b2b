/**
 * The text of the API's XML, as the server writes it and clients read and write it: elements
 * for fields, `<item>` for array entries, absent fields left out, and the five predefined
 * entities plus character references as the only references. Its own entry point
 * (`@fulfil/core/xml`) with nothing else in it, so a client bundles these few lines and not the
 * engine.
 */

// Characters XML 1.0 cannot carry at all; they are replaced rather than producing a broken document.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** `text` as element content: markup characters escaped, characters XML cannot carry replaced. */
export function escapeXmlText(text: string): string {
  return text
    .replace(NOT_XML_CHAR, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * `value` as the element `name`: objects field by field, arrays as `<item>` entries; `null`,
 * `undefined` and numbers that are not finite give no element at all.
 */
export function xmlElement(name: string, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) {
    return `<${name}>${value.map((entry) => xmlElement('item', entry)).join('')}</${name}>`;
  }
  if (typeof value === 'object') {
    const children = Object.entries(value as Record<string, unknown>)
      .map(([key, child]) => xmlElement(key, child))
      .join('');
    return `<${name}>${children}</${name}>`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return '';
  return `<${name}>${escapeXmlText(String(value))}</${name}>`;
}

const PREDEFINED: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
};

/**
 * Replaces the predefined entities and character references; anything else stays as written
 * (no entity is ever declared or expanded, and a reference past U+10FFFF is left alone).
 */
export function decodeXmlReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(lt|gt|amp|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g, (whole, name: string) => {
    if (!name.startsWith('#')) return PREDEFINED[name] ?? whole;
    const codePoint = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    // `&#0;` is a NUL, as `\u0000` is in JSON: decoded, it is refused like one, never stored as text.
    return codePoint >= 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : whole;
  });
}
