/**
 * Runs `task` every `intervalMs`, never two runs at once: the next run is scheduled only once the
 * previous one has settled. The first run comes after one interval, or at once with `atOnce`.
 * With `unref`, the timer never keeps the process alive. `task` handles its own failures. The
 * returned function stops the runs and resolves once a run under way has finished, so that what
 * it uses (the database) can be closed right after.
 */
export function repeating(
  task: () => Promise<void>,
  options: { intervalMs: number; atOnce?: boolean; unref?: boolean },
): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let run: Promise<void> = Promise.resolve();

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      run = task().then(schedule);
    }, options.intervalMs);
    if (options.unref) timer.unref();
  };
  if (options.atOnce) run = task().then(schedule);
  else schedule();

  return async () => {
    stopped = true;
    clearTimeout(timer);
    await run;
  };
}
