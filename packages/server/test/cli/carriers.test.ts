import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, smallSeed, tempDatabasePerTest, writeJson } from './run-cli.js';

/** `--carriers <file>` (env FULFIL_CARRIERS): the installation's carrier accounts (docs/couriers.md). */

describe('fulfil --carriers', () => {
  const temp = tempDatabasePerTest();

  const carriers = {
    accounts: {
      bridge: { type: 'http', url: 'https://bridge.example/fulfil', secret_env: 'BRIDGE_SECRET' },
      'shipengine-eu': { type: 'shipengine', secret_env: 'SHIPENGINE_API_KEY', stores: ['eu'] },
    },
  };

  /** The small seed, its store shipping through `courier`. */
  async function seedWith(courier: Record<string, unknown>): Promise<string> {
    const seed = smallSeed();
    (seed.stores[0] as { settings: Record<string, unknown> }).settings.courier = courier;
    return writeJson(join(temp.dir, 'seed.json'), seed);
  }

  it('a seed picks an account the file declares; without the file it is refused, naming what exists', async () => {
    const seedFile = await seedWith({ account: 'bridge' });
    const { db } = temp;
    const refused = await runCli(['seed', seedFile, '--db', db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.text).toBe(
      'fulfil seed: Carrier account bridge is not declared for this store. Declared: none. [stores[0].settings.courier.account]\n',
    );
    const file = await writeJson(join(temp.dir, 'carriers.json'), carriers);
    const seeded = await runCli(['seed', seedFile, '--db', db, '--carriers', file]);
    expect(seeded.code).toBe(0);
    // The environment names the file as well; an account of another store is refused.
    const fresh = await runCli(
      ['seed', await seedWith({ account: 'shipengine-eu' }), '--db', `${db}-2`],
      { env: { FULFIL_CARRIERS: file } },
    );
    expect(fresh.code).toBe(1);
    expect(fresh.stderr.text).toContain('Declared: bridge.');
  });

  it('a seed that names a URL or a variable is refused by field, whatever the file declares', async () => {
    const file = await writeJson(join(temp.dir, 'carriers.json'), carriers);
    const seedFile = await seedWith({ type: 'http', url: 'http://10.0.0.1/', secret_env: 'X' });
    const run = await runCli(['seed', seedFile, '--db', 'sqlite::memory:', '--carriers', file]);
    expect(run.code).toBe(1);
    expect(run.stderr.text).toMatch(
      /^fulfil seed: Invalid value of "stores\[0\]\.settings\.courier\.secret_env": is the installation's to set: pick a carrier account with courier\.account \(and 1 more\)\n$/,
    );
  });

  it('a mistake in the file is one line naming the file and the field, before anything opens', async () => {
    const cases: [unknown, string][] = [
      [{ accounts: { bridge: { type: 'http', url: 'ftp://x' } } }, 'accounts.bridge.url'],
      [{ accounts: { bridge: { type: 'http' } } }, 'accounts.bridge.url is missing'],
      [{ accounts: { mail: { type: 'pigeon' } } }, 'accounts.mail.type must be one of'],
      [{ accounts: { bridge: { type: 'http', url: 'https://x', key: 'k' } } }, 'key'],
      [{ bridge: { type: 'http' } }, 'accounts'],
    ];
    for (const [document, expected] of cases) {
      const file = await writeJson(join(temp.dir, 'carriers.json'), document);
      const run = await runCli(['stock', 'list', '--db', 'sqlite::memory:', '--carriers', file]);
      expect(run.code, JSON.stringify(document)).toBe(1);
      expect(run.stderr.text).toContain(`fulfil stock list: ${file}: `);
      expect(run.stderr.text).toContain(expected);
      expect(run.stderr.text.trimEnd().split('\n')).toHaveLength(1);
    }
    const missing = await runCli(['stock', 'list', '--carriers', join(temp.dir, 'nope.json')]);
    expect(missing.stderr.text).toMatch(/cannot read .*nope\.json: ENOENT/);
  });
});
