import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate } from '../scripts/generate.js';

describe('src/generated/', () => {
  it("matches what core's schemas and the server's error body generate today", () => {
    const directory = new URL('../src/generated/', import.meta.url);
    const generated = generate();
    // Out of date: run `npx -y pnpm@10.34.9 --filter @fulfil/client generate` and commit the files.
    expect(readdirSync(directory).sort()).toEqual([...generated.keys()].sort());
    for (const [file, text] of generated) {
      expect(readFileSync(new URL(file, directory), 'utf8'), file).toBe(text);
    }
    // Type-checking core to expand the types takes seconds, more on a busy machine.
  }, 120_000);
});
