import { skipUnless } from '@fulfil/core/testing';
import { describe, it } from 'vitest';
import { postgresDatabase } from '../scale-out/support.js';
import { describeCrashSafety } from './kill-cycles.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

// A schema of its own on the test database (dropped after). Only the server is killed, never
// PostgreSQL: it is shared.
if (url) {
  describeCrashSafety({ name: 'PostgreSQL', makeDatabase: async () => postgresDatabase(url) });
} else {
  describe('crash safety on PostgreSQL', () => {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
  });
}
