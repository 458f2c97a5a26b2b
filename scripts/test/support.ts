import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository's root directory. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The pnpm the repository pins (package.json's `packageManager`). */
export const PNPM_VERSION = (
  JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { packageManager: string }
).packageManager.replace(/^pnpm@/, '');

/**
 * How to run that pnpm: the one running these tests when they run under it (`pnpm test`), else
 * through npx, as the README does.
 */
export function pnpmCommand(): [string, ...string[]] {
  const running = process.env.npm_execpath;
  if (
    running &&
    /pnpm/.test(running) &&
    process.env.npm_config_user_agent?.includes(`pnpm/${PNPM_VERSION}`)
  ) {
    return [process.execPath, running];
  }
  return ['npx', '-y', `pnpm@${PNPM_VERSION}`];
}
