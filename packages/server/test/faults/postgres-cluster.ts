import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { alive } from '../scale-out/support.js';

/**
 * A throwaway PostgreSQL cluster of the machine's Debian tooling (`pg_createcluster`), on a free
 * port of its own, that a test may restart, stop and cut connections of without disturbing any
 * other database. `drop()` removes it, stopped or not.
 */

const run = promisify(execFile);
const VERSION = '15';
const TOOLS = [
  'pg_createcluster',
  'pg_ctlcluster',
  'pg_dropcluster',
  'pg_lsclusters',
  'psql',
] as const;

/** What is missing to make a cluster here, or null when everything is. */
export async function missingClusterTools(): Promise<string | null> {
  for (const tool of TOOLS) {
    try {
      await run('sh', ['-c', `command -v ${tool}`]);
    } catch {
      return `${tool} is not installed (Debian's postgresql-common, with PostgreSQL ${VERSION})`;
    }
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface PostgresCluster {
  name: string;
  port: number;
  /** A superuser URL of its `postgres` database. */
  url: string;
  /** `pg_ctlcluster restart -m fast`: every connection is cut, the server is back when it resolves. */
  restart(): Promise<void>;
  /** `pg_ctlcluster stop -m fast`: connections are cut and new ones refused until `start`. */
  stop(): Promise<void>;
  /** Starts it; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Terminates every backend whose application_name is `applicationName`; returns how many. */
  terminateBackends(applicationName: string): Promise<number>;
  /** Stops and removes the cluster and its files. Safe to call twice. */
  drop(): Promise<void>;
}

const ctl = (name: string, ...args: string[]) =>
  run('pg_ctlcluster', ['--skip-systemctl-redirect', VERSION, name, ...args]);

const PREFIX = 'fulfil_faults_';

/** Drops the clusters of earlier runs whose process was killed before it could drop them. */
async function dropOrphans(): Promise<void> {
  const { stdout } = await run('pg_lsclusters', ['--no-header']);
  for (const line of stdout.split('\n')) {
    const [version, name] = line.trim().split(/\s+/);
    const pid = Number(name?.startsWith(PREFIX) ? name.slice(PREFIX.length).split('_')[0] : NaN);
    if (version === VERSION && name && Number.isInteger(pid) && !alive(pid)) {
      await run('pg_dropcluster', ['--stop', VERSION, name]).catch(() => undefined);
    }
  }
}

/** Creates and starts a cluster with trust authentication on a free local port. */
export async function createPostgresCluster(): Promise<PostgresCluster> {
  await dropOrphans();
  const name = `${PREFIX}${process.pid}_${randomBytes(3).toString('hex')}`;
  const port = await freePort();
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await run('pg_dropcluster', ['--stop', VERSION, name]).catch(() => undefined);
  };
  try {
    // A test database: durability is not the point, speed and a small footprint are.
    await run('pg_createcluster', [
      VERSION,
      name,
      '--port',
      String(port),
      '-o',
      'fsync=off',
      '-o',
      'synchronous_commit=off',
      '-o',
      'full_page_writes=off',
      '-o',
      'shared_buffers=16MB',
      '-o',
      'max_connections=60',
    ]);
    await writeFile(
      `/etc/postgresql/${VERSION}/${name}/pg_hba.conf`,
      'local all all trust\nhost all all 127.0.0.1/32 trust\n',
    );
    await ctl(name, 'start');
  } catch (error) {
    await drop();
    throw error;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    name,
    port,
    url,
    restart: async () => void (await ctl(name, 'restart', '-m', 'fast')),
    stop: async () => void (await ctl(name, 'stop', '-m', 'fast')),
    start: async () => void (await ctl(name, 'start')),
    async terminateBackends(applicationName) {
      const { stdout } = await run('psql', [
        '--no-psqlrc',
        '--tuples-only',
        '--no-align',
        '--dbname',
        url,
        '--command',
        'select count(*) filter (where pg_terminate_backend(pid)) from pg_stat_activity ' +
          `where application_name = '${applicationName.replaceAll("'", "''")}'`,
      ]);
      return Number(stdout.trim());
    },
    drop,
  };
}
