// Builds dist/docs.html: the API reference page the server serves at /docs. Redoc's standalone
// bundle is inlined, so the page loads nothing from elsewhere; it reads the OpenAPI document from
// the URL the server writes into its `fulfil-openapi` meta tag when it serves the page.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const bundle = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
const { version } = JSON.parse(readFileSync(require.resolve('redoc/package.json'), 'utf8'));

// Inside an inline script, `</script` would end it early.
const inline = bundle.replace(/<\/(script)/gi, '<\\/$1');

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="fulfil-openapi" content="{{OPENAPI_URL}}">
<meta name="generator" content="Redoc ${version}">
<title>Fulfil API reference</title>
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
