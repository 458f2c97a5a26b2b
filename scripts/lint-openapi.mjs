// `pnpm lint:openapi`: writes the OpenAPI document the server serves to a temporary file and
// lints it with Redocly's recommended rules (config in redocly.yaml).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'fulfil-openapi-'));
try {
  const document = execFileSync(
    process.execPath,
    [join(root, 'scripts', 'fulfil.mjs'), 'openapi'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const file = join(dir, 'openapi.json');
  writeFileSync(file, document);
  const redocly = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  execFileSync(process.execPath, [redocly, 'lint', file, '--config', join(root, 'redocly.yaml')], {
    cwd: root,
    stdio: 'inherit',
    // No usage reports from a linter: CI has no network, and a lint is nobody's business.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    timeout: 120_000,
  });
} catch (error) {
  process.exitCode = typeof error.status === 'number' ? error.status : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
