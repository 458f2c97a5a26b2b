import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminEnabled, isLoopback, readAdminSwitch } from '../../src/cli/admin-exposure.js';
import { runCli, tempDir, writeJson } from './run-cli.js';

/** `fulfil operator …`, and when `serve` offers the admin API (docs/admin-api.md). */

describe('fulfil operator', () => {
  it('creates operators (secret printed once), lists them without secrets, revokes them', async () => {
    const { dir, remove } = await tempDir();
    try {
      const db = `sqlite:${join(dir, 'fulfil.db')}`;
      const seed = await writeJson(join(dir, 'seed.json'), {
        stores: [{ code: 'default' }, { code: 'milan' }],
      });
      expect((await runCli(['seed', seed, '--db', db])).code).toBe(0);
      const admin = await runCli([
        'operator',
        'create',
        '--name',
        'alice',
        '--role',
        'admin',
        '--db',
        db,
      ]);
      expect(admin.code).toBe(0);
      const created = admin.stdout.json<{
        name: string;
        role: string;
        store_code: null;
        secret: string;
      }>();
      expect(created).toMatchObject({ name: 'alice', role: 'admin', store_code: null });
      expect(created.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(admin.stderr.text).toContain('not shown again');
      const scoped = await runCli([
        'operator',
        'create',
        '--name',
        'bob',
        '--role',
        'operator',
        '--store',
        'milan',
        '--db',
        db,
      ]);
      expect(scoped.stdout.json()).toMatchObject({ name: 'bob', store_code: 'milan' });

      const list = await runCli(['operator', 'list', '--db', db]);
      expect(list.stdout.json<{ name: string }[]>().map((o) => o.name)).toEqual(['alice', 'bob']);
      expect(list.stdout.text).not.toContain(created.secret);
      expect(list.stdout.text).not.toContain('hash');

      const revoked = await runCli(['operator', 'revoke', 'bob', '--db', db]);
      expect(revoked.stdout.json()).toMatchObject({ name: 'bob', revoked_at: expect.any(String) });

      for (const argv of [
        ['operator', 'create', '--name', 'x', '--role', 'root'],
        ['operator', 'create', '--role', 'admin'],
      ]) {
        expect((await runCli([...argv, '--db', db])).code, argv.join(' ')).toBe(2);
      }
      const taken = await runCli([
        'operator',
        'create',
        '--name',
        'alice',
        '--role',
        'viewer',
        '--db',
        db,
      ]);
      expect(taken.code).toBe(1);
      const unknownStore = await runCli([
        'operator',
        'create',
        '--name',
        'z',
        '--role',
        'viewer',
        '--store',
        'nope',
        '--db',
        db,
      ]);
      expect(unknownStore.code).toBe(1);
    } finally {
      await remove();
    }
  });
});

describe('the admin API exposure of serve', () => {
  it('is on for loopback hosts only unless told', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '10.0.0.5', '::', 'example.com', '128.0.0.1'])
      expect(isLoopback(host), host).toBe(false);
    expect(adminEnabled('auto', '127.0.0.1')).toBe(true);
    expect(adminEnabled('auto', '0.0.0.0')).toBe(false);
    expect(adminEnabled('on', '0.0.0.0')).toBe(true);
    expect(adminEnabled('off', '127.0.0.1')).toBe(false);
    expect(() => readAdminSwitch('yes')).toThrow(/auto, on or off/);
    expect(readAdminSwitch(undefined)).toBe('auto');
  });
});
