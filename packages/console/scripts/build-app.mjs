// Builds the console into dist/app: one script and one stylesheet with content-hashed names
// (served for a year), index.html naming them (served no-cache), and a brotli and a gzip copy
// of each beside it, compressed once here instead of on every request.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const out = root('dist/app');
rmSync(out, { recursive: true, force: true });
mkdirSync(`${out}/assets`, { recursive: true });

const result = await build({
  entryPoints: [root('app/main.tsx')],
  bundle: true,
  write: false,
  format: 'esm',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  define: { 'process.env.NODE_ENV': '"production"' },
});
const script = result.outputFiles[0].contents;
const style = (
  await build({ entryPoints: [root('app/styles.css')], bundle: true, write: false, minify: true })
).outputFiles[0].contents;

function hashed(name, extension, bytes) {
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  return `${name}-${digest}.${extension}`;
}

function emit(path, bytes) {
  writeFileSync(path, bytes);
  const gzip = gzipSync(bytes, { level: 9 });
  writeFileSync(`${path}.gz`, gzip);
  const br = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  writeFileSync(`${path}.br`, br);
  return gzip.length;
}

const scriptName = hashed('app', 'js', script);
const styleName = hashed('app', 'css', style);
const scriptGzip = emit(`${out}/assets/${scriptName}`, script);
emit(`${out}/assets/${styleName}`, style);
const page = readFileSync(root('app/index.html'), 'utf8')
  .replace('{{SCRIPT}}', scriptName)
  .replace('{{STYLE}}', styleName);
emit(`${out}/index.html`, Buffer.from(page));
process.stderr.write(`console: ${out} (script ${script.length} bytes, ${scriptGzip} gzipped)\n`);
