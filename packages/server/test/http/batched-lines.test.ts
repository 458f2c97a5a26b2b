import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { batchedLines } from '../../src/http/batched-lines.js';

const BUILT = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** The server's log sinks: the lines of one turn of the event loop in one write. */
describe('batchedLines', () => {
  it('writes the lines of one turn together, in order, once the turn ends', async () => {
    const writes: string[] = [];
    const log = batchedLines({ write: (chunk) => writes.push(chunk) });
    log('{"n":1}');
    log('{"n":2}');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    log('{"n":3}');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
  });

  it('writes what is pending when the process exits in the same turn', () => {
    const script = `import(${JSON.stringify(BUILT)}).then(({ stdoutLog }) => {
      stdoutLog('{"last":true}');
      process.exit(3);
    });`;
    let output = '';
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout);
      expect((error as { status?: number }).status).toBe(3);
    }
    expect(output).toBe('{"last":true}\n');
  });
});
