import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate } from '../scripts/generate.js';

describe('src/generated.ts', () => {
  it("matches what core's schemas and the server's error body generate today", () => {
    const committed = readFileSync(new URL('../src/generated.ts', import.meta.url), 'utf8');
    // Out of date: run `npx -y pnpm@10.34.9 --filter @fulfil/client generate` and commit the file.
    expect(committed).toBe(generate());
    // Type-checking core to expand the types takes seconds, more on a busy machine.
  }, 120_000);
});
