import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { CourierLabel } from '@fulfil/core';
import { columns, UsageError } from './args.js';

/**
 * Courier labels as `fulfil courier label` shows and writes them (docs/couriers.md): a summary
 * a person reads, and the documents as the carrier gave them, decoded, one file each.
 */

/** Formats whose documents are binary, and so held as base64 (the courier port's contract). */
const BINARY_FORMATS = new Set(['pdf', 'png', 'gif', 'jpg', 'jpeg']);

/** The document's bytes: base64 decoded for a binary format, the text itself for ZPL and others. */
export function documentBytes(label: CourierLabel): Buffer | null {
  if (label.document === null) return null;
  const format = label.document_format?.toLowerCase() ?? '';
  if (!BINARY_FORMATS.has(format)) return Buffer.from(label.document, 'utf8');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(label.document.replace(/\s+/g, ''))) {
    throw new Error(`the ${format} document of label ${label.reference} is not base64`);
  }
  return Buffer.from(label.document, 'base64');
}

/** `100-1/shipment-1/1` → `100-1_shipment-1_1.zpl`: one safe name per label, in any directory. */
export function fileNameOf(label: CourierLabel): string {
  const base = label.reference.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  const format = label.document_format?.toLowerCase() ?? '';
  return `${base}.${/^[a-z0-9]{1,10}$/.test(format) ? format : 'bin'}`;
}

const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KiB`;

/** What is held of the label's document, in words. */
function documentLine(label: CourierLabel): string {
  const format = label.document_format ?? 'document';
  let bytes: Buffer | null;
  try {
    bytes = documentBytes(label);
  } catch {
    return `${format}, not base64`;
  }
  if (bytes) return `${format}, ${size(bytes.length)}`;
  if (label.document_url) return `${format} at ${label.document_url}`;
  return 'no document';
}

/** One line per label: reference, status, parcel, tracking number, document, last error. */
export function labelSummary(
  number: string,
  labels: readonly CourierLabel[],
  all: boolean,
): string {
  const what = all ? 'label' : 'live label';
  const head = `Order ${number}: ${labels.length} ${what}${labels.length === 1 ? '' : 's'}`;
  if (labels.length === 0) return `${head}.\n`;
  const rows = labels.map((label): [string, string] => [
    label.reference,
    [
      label.status,
      `parcel ${label.parcel_index}/${label.parcel_count}`,
      label.tracking_number ?? 'no tracking number',
      documentLine(label),
      ...(label.last_error ? [`last error: ${label.last_error}`] : []),
    ].join('  '),
  ]);
  return `${head}\n${columns(rows)}\nWrite the documents with --out <file|dir>; --json prints the labels as JSON.\n`;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Writes each label's document to `out`: into it when it is a directory (or ends with a path
 * separator, created then), one file per label; to it when it is a file and one label has a
 * document. Answers a line per label: where it went, or why it did not.
 */
export async function writeLabelFiles(
  labels: readonly CourierLabel[],
  out: string,
): Promise<string[]> {
  const held = labels.filter((label) => label.document !== null);
  const intoDirectory = out.endsWith('/') || out.endsWith(sep) || (await isDirectory(out));
  if (!intoDirectory && held.length > 1) {
    throw new UsageError(
      `${held.length} labels have documents: give --out a directory (an existing one, or a path ending in ${sep})`,
    );
  }
  if (intoDirectory) await mkdir(out, { recursive: true });
  const lines: string[] = [];
  for (const label of labels) {
    const bytes = documentBytes(label);
    if (bytes === null) {
      const where = label.document_url ? `: the carrier has it at ${label.document_url}` : '';
      lines.push(`${label.reference}: no document held${where}`);
      continue;
    }
    const file = intoDirectory ? join(out, fileNameOf(label)) : out;
    await writeFile(file, bytes);
    lines.push(
      `${label.reference}: ${label.document_format ?? 'document'}, ${size(bytes.length)} → ${file}`,
    );
  }
  return lines;
}
