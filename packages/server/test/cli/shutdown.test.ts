import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { SAME_SIGNAL_MS, stopRequest } from '../../src/cli/shutdown.js';
import { Capture } from './run-cli.js';

/**
 * How `serve` reads the signals it gets: the first asks for a graceful stop; the same signal
 * again at once is that request passed on (a terminal's Ctrl+C reaches the server, and pnpm
 * sends it on again); a signal later, or another one, stops at once.
 */

function listen() {
  const signals = new EventEmitter();
  const stderr = new Capture();
  const exits: number[] = [];
  let now = 1_000_000;
  const io = { signals, stderr, env: {}, exit: (code: number) => exits.push(code) };
  const request = stopRequest(io as unknown as CliIo, () => now);
  return {
    signals,
    stderr,
    exits,
    request,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('stopRequest', () => {
  it('one Ctrl+C delivered twice (terminal, then pnpm) is one graceful stop', async () => {
    const { signals, exits, stderr, request, advance } = listen();
    signals.emit('SIGINT');
    advance(3);
    signals.emit('SIGINT');
    expect(await request.reason).toBe('SIGINT');
    expect(exits).toEqual([]);
    expect(stderr.text).toBe('');
    request.dispose();
  });

  it('a second Ctrl+C later stops at once', async () => {
    const { signals, exits, stderr, request, advance } = listen();
    signals.emit('SIGINT');
    advance(SAME_SIGNAL_MS);
    signals.emit('SIGINT');
    expect(await request.reason).toBe('SIGINT');
    expect(exits).toEqual([1]);
    expect(stderr.text).toBe('fulfil: SIGINT again: stopping at once.\n');
    request.dispose();
  });

  it('another signal after the first stops at once, however soon (pnpm sends SIGTERM on a second Ctrl+C)', () => {
    const { signals, exits, request } = listen();
    signals.emit('SIGINT');
    signals.emit('SIGTERM');
    expect(exits).toEqual([1]);
    request.dispose();
  });
});
