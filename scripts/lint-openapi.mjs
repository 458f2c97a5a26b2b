// `pnpm lint:openapi`: writes the OpenAPI document the server serves to a temporary file and
// lints it, with the HTTP courier protocol's document, by Redocly's recommended rules (config in
// redocly.yaml).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'fulfil-openapi-'));
try {
  // The /V1 document, then the admin API's (docs/admin-api.md).
  for (const [name, extra] of [
    ['openapi.json', []],
    ['admin-openapi.json', ['--admin']],
  ]) {
    const document = execFileSync(
      process.execPath,
      [join(root, 'scripts', 'fulfil.mjs'), 'openapi', ...extra],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const file = join(dir, name);
    writeFileSync(file, document);
    const redocly = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    execFileSync(
      process.execPath,
      [redocly, 'lint', file, '--config', join(root, 'redocly.yaml')],
      {
        cwd: root,
        stdio: 'inherit',
        // No usage reports from a linter: CI has no network, and a lint is nobody's business.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        timeout: 120_000,
      },
    );
  }
  // The HTTP courier protocol (docs/couriers.md), a document of its own.
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'),
      'lint',
      join(root, 'docs', 'http-courier.openapi.yaml'),
      '--config',
      join(root, 'redocly.yaml'),
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 120_000,
    },
  );
} catch (error) {
  process.exitCode = typeof error.status === 'number' ? error.status : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
