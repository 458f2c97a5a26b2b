/**
 * The CPU time of the Postgres backends serving one client, found by the `application_name`
 * its connections give (read from /proc: the bench runs beside the server it measures).
 */
import { cpuMsOf } from './child.js';
import { withPostgres } from './raw-postgres.js';

async function backendPids(url: string, application: string): Promise<number[]> {
  const { rows } = await withPostgres(url, (client) =>
    client.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [
      application,
    ]),
  );
  return rows.map((row) => row.pid);
}

/** CPU time used so far by each of `pids` that is still running. */
function cpuOf(pids: Iterable<number>): Map<number, number> {
  const spent = new Map<number, number>();
  for (const pid of pids) {
    const ms = cpuMsOf(pid);
    if (!Number.isNaN(ms)) spent.set(pid, ms);
  }
  return spent;
}

/** CPU time so far, in ms, of each backend named `application`. */
export async function backendCpu(url: string, application: string): Promise<Map<number, number>> {
  return cpuOf(await backendPids(url, application));
}

/**
 * The ms of CPU the backends named `application` spent since `before` (`backendCpu`'s): a
 * backend the pool opened meanwhile started from nothing; one it closed meanwhile is left out:
 * the pool closes only a connection left idle for 30 s, longer than a stage lasts. (Counting
 * its time before as given back made a stage with group commit, whose lanes leave most of the
 * pool idle, read 0 ms.)
 */
export async function backendCpuSince(
  url: string,
  application: string,
  before: ReadonlyMap<number, number>,
): Promise<number> {
  const pids = new Set([...before.keys(), ...(await backendPids(url, application))]);
  let spent = 0;
  for (const [pid, after] of cpuOf(pids)) spent += after - (before.get(pid) ?? 0);
  return spent;
}
