import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { type CommandContext, resolvePath } from './command.js';

/** A file named on the command line, or standard input for `-`, read as a stream. */
export interface InputFile {
  chunks: AsyncIterable<string | Buffer>;
  /** Bytes in the file, when known (not for standard input). */
  size: number | undefined;
  /** Bytes consumed so far. */
  bytesRead(): number;
}

export async function openInput(context: CommandContext, name: string): Promise<InputFile> {
  if (name === '-') {
    let read = 0;
    const source = context.io.stdin;
    return {
      chunks: (async function* () {
        for await (const chunk of source) {
          read += chunk.length;
          yield chunk;
        }
      })(),
      size: undefined,
      bytesRead: () => read,
    };
  }
  const path = resolvePath(context, name);
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw Object.assign(new Error(), { code: 'not a file' });
    size = info.size;
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  const stream = createReadStream(path);
  return { chunks: stream, size, bytesRead: () => stream.bytesRead };
}
