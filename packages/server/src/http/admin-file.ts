import type { CourierLabel } from '@fulfil/core';

/**
 * An admin answer that is a file, not JSON (a label's document): its bytes, its type, and how a
 * browser takes it. The handler writes it as it is.
 */
export class AdminFile {
  constructor(
    readonly body: Buffer,
    readonly contentType: string,
    readonly headers: Record<string, string>,
  ) {}
}

/** What every file answer may do: show itself, load nothing, be framed by nobody. */
const STRICT = "default-src 'none'; frame-ancestors 'none'";

/**
 * Formats a browser shows itself, stored as base64 (docs/couriers.md). A PDF gets no
 * `default-src 'none'`: Chrome's viewer draws it in an `<embed>` that `object-src 'none'` would
 * block; `nosniff` and its type keep it a PDF, never a page.
 */
const SHOWN: Record<string, { type: string; csp: string }> = {
  pdf: { type: 'application/pdf', csp: "frame-ancestors 'none'" },
  png: { type: 'image/png', csp: STRICT },
};

/** A name safe in a header and a file system: letters, digits, `.`, `_` and `-`. */
function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'label';
}

/**
 * A label's document as a file: a PDF or PNG to view in the browser (`inline`), any other
 * format (ZPL for a thermal printer, …) to download as it was issued (`attachment`), never as
 * a type the browser would run.
 */
export function labelFile(
  label: Pick<CourierLabel, 'reference' | 'document_format'> & {
    document: string;
  },
): AdminFile {
  const format = (label.document_format ?? '').toLowerCase();
  const extension = /^[a-z0-9]{1,8}$/.test(format) ? format : 'bin';
  const filename = `${safeName(label.reference)}.${extension}`;
  const shown = SHOWN[format];
  if (shown) {
    return new AdminFile(Buffer.from(label.document, 'base64'), shown.type, {
      'content-disposition': `inline; filename="${filename}"`,
      'content-security-policy': shown.csp,
    });
  }
  return new AdminFile(Buffer.from(label.document, 'utf8'), 'application/octet-stream', {
    'content-disposition': `attachment; filename="${filename}"`,
    'content-security-policy': STRICT,
  });
}
