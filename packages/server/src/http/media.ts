/** Content negotiation (docs/api.md): JSON by default, XML on request, 406 for anything else. */

export type Format = 'json' | 'xml';

/** A media type the server can produce, with the format behind it. */
export interface Produced {
  format: Format;
  contentType: string;
}

export const JSON_MEDIA: Produced = {
  format: 'json',
  contentType: 'application/json; charset=utf-8',
};

/** What negotiation can answer: one object each, shared by every request that picks it. */
const PRODUCED = [
  { type: 'application', subtype: 'json', media: JSON_MEDIA },
  {
    type: 'application',
    subtype: 'xml',
    media: { format: 'xml', contentType: 'application/xml; charset=utf-8' },
  },
  {
    type: 'text',
    subtype: 'xml',
    media: { format: 'xml', contentType: 'text/xml; charset=utf-8' },
  },
] as const satisfies readonly { type: string; subtype: string; media: Produced }[];

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/**
 * One entry of an `Accept`-style header (`value;q=0.5`): its value, lowercased, and its q-value
 * (1 when absent, 0 when malformed).
 */
export function weightedEntry(text: string): { value: string; q: number } {
  const [value = '', ...params] = text.split(';');
  let q = 1;
  for (const param of params) {
    const [name = '', weight = ''] = param.split('=').map((part) => part.trim());
    if (name.toLowerCase() !== 'q') continue;
    q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(weight) ? Number(weight) : 0;
  }
  return { value: value.trim().toLowerCase(), q };
}

function parseRange(text: string): MediaRange | null {
  const { value, q } = weightedEntry(text);
  const [type, subtype, ...rest] = value.split('/');
  if (!type || !subtype || rest.length) return null;
  return { type, subtype, q };
}

/** How closely a range names a type: exact 3, `type/*` 2, `*\/*` 1, no match 0. */
function specificity(range: MediaRange, type: string, subtype: string): number {
  if (range.type === type && range.subtype === subtype) return 3;
  if (range.type === type && range.subtype === '*') return 2;
  if (range.type === '*' && range.subtype === '*') return 1;
  return 0;
}

/** A media type a resource can be answered in. */
export interface Offered {
  type: string;
  subtype: string;
}

/**
 * The entry of `offered` the client weighs highest in `accept`, honouring q-values and
 * wildcards; the first offered wins a tie. Null when `accept` takes none of them.
 */
export function preferred<T extends Offered>(accept: string, offered: readonly T[]): T | null {
  const ranges = accept
    .split(',')
    .map(parseRange)
    .filter((range): range is MediaRange => range !== null);
  let best: { entry: T; q: number } | null = null;
  for (const entry of offered) {
    let q = 0;
    let closest = 0;
    for (const range of ranges) {
      const level = specificity(range, entry.type, entry.subtype);
      if (level > closest) {
        closest = level;
        q = range.q;
      }
    }
    if (q > 0 && (!best || q > best.q)) best = { entry, q };
  }
  return best ? best.entry : null;
}

/**
 * The media type to answer with among `formats`, honouring q-values and wildcards; JSON wins ties
 * and is the default when `Accept` is missing or blank. Null when `Accept` names nothing
 * producible (406).
 */
export function negotiate(
  accept: string | undefined,
  formats: readonly Format[] = ['json', 'xml'],
): Produced | null {
  const offered = PRODUCED.filter((produced) => formats.includes(produced.media.format));
  if (accept === undefined || accept.trim() === '')
    return formats.includes('json') ? JSON_MEDIA : null;
  return preferred(accept, offered)?.media ?? null;
}

/** The media type of a Content-Type header, lowercased, and its charset if any. */
export function parseContentType(
  header: string | undefined,
): { mediaType: string; charset: string | null } | null {
  if (!header) return null;
  const [mediaType = '', ...params] = header.split(';');
  let charset: string | null = null;
  for (const param of params) {
    const [name = '', value = ''] = param.split('=').map((part) => part.trim());
    if (name.toLowerCase() === 'charset') charset = value.replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return { mediaType: mediaType.trim().toLowerCase(), charset };
}

/** The request format of a media type, or null when the server cannot read it (415). */
export function requestFormat(mediaType: string): Format | null {
  if (mediaType === 'application/json') return 'json';
  if (mediaType === 'application/xml' || mediaType === 'text/xml') return 'xml';
  return null;
}
