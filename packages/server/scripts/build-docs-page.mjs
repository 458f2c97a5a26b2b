// Builds dist/docs.html: the API reference page the server serves at /docs. Redoc's standalone
// bundle is inlined and its images are the server's own, so the page loads nothing from
// elsewhere; it reads the OpenAPI document from
// the URL the server writes into its `fulfil-openapi` meta tag when it serves the page.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const bundle = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
const { version } = JSON.parse(readFileSync(require.resolve('redoc/package.json'), 'utf8'));

// The sidebar's attribution shows Redocly's logo from its CDN: the server serves a stand-in
// (src/http/docs-assets.ts), relative to the page as `docs/redoc.svg`.
const LOGOS = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g;
// Its icon component reads from the CDN too; no part of this page draws one, and should one
// ever be drawn it would ask the server (and get a 404) rather than the internet.
const ICONS = /https:\/\/cdn\.redocly\.com\/icons\//g;
const local = bundle.replace(LOGOS, 'docs/redoc.svg').replace(ICONS, 'docs/icons/');
// Anything else the bundle would load from a CDN must be found and handled like the logo.
const remote = /https?:\/\/cdn\.[^`'"\s)]*/.exec(local);
if (remote) throw new Error(`redoc's bundle loads ${remote[0]}: serve it from the server`);

// Inside an inline script, `</script` would end it early.
const inline = local.replace(/<\/(script)/gi, '<\\/$1');

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="fulfil-openapi" content="{{OPENAPI_URL}}">
<meta name="generator" content="Redoc ${version}">
<title>Fulfil API reference</title>
<link rel="icon" type="image/svg+xml" href="docs/icon.svg">
<style>body { margin: 0; }</style>
</head>
<body>
<div id="redoc"></div>
<script type="module">
${inline}
const url = document.querySelector('meta[name="fulfil-openapi"]').content;
init(url, { disableTelemetry: true, router: 'hash' }, document.getElementById('redoc'));
</script>
</body>
</html>
`;

const target = fileURLToPath(new URL('../dist/docs.html', import.meta.url));
writeFileSync(target, page);
process.stderr.write(`docs page: ${target} (Redoc ${version}, ${page.length} bytes)\n`);
