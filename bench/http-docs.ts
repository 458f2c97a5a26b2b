/**
 * The API reference page over HTTP, brotli-compressed as browsers ask for it: `fulfil serve`
 * against a bare node:http server sending the very bytes Fulfil sent. The page is built and
 * compressed once per process, so each request should cost about what sending the bytes does.
 */
import { writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { startFloor, startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { describeLoad, type LoadResult, load } from './load.js';
import type { Sizes } from './options.js';
import { addRow, ratioOf } from './summary.js';

const HEADERS = { 'accept-encoding': 'gzip, deflate, br' };

async function measure(url: string, sizes: Sizes): Promise<LoadResult> {
  await load({ url, headers: HEADERS, seconds: sizes.warmupSeconds });
  return load({ url, headers: HEADERS, seconds: sizes.seconds });
}

export async function benchHttpDocs(database: BenchDatabase, dir: string, sizes: Sizes) {
  const fulfil = await startFulfil(dir, database.url);
  try {
    // The bytes on the wire, still compressed (fetch would decode them).
    const raw = await new Promise<Buffer>((resolve, reject) => {
      get(`${fulfil.url}/docs`, { headers: HEADERS }, (res) => {
        if (res.headers['content-encoding'] !== 'br') {
          reject(new Error(`/docs answered ${res.statusCode} without brotli`));
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      }).on('error', reject);
    });
    const file = join(dir, 'docs.html.br');
    writeFileSync(file, raw);

    const ours = await measure(`${fulfil.url}/docs`, sizes);
    const floorServer = await startFloor(dir, 'bytes', [file, 'text/html; charset=utf-8']);
    let floor: LoadResult;
    try {
      floor = await measure(`${floorServer.url}/docs`, sizes);
    } finally {
      await floorServer.stop();
    }
    addRow({
      scenario: `/docs, brotli (${Math.round(raw.length / 1024)} KB)`,
      fulfil: describeLoad(ours),
      floor: describeLoad(floor),
      ratio: ratioOf(ours.requestsPerSecond, floor.requestsPerSecond),
      target: '≥ 0.5',
    });
  } finally {
    await fulfil.stop();
  }
}
