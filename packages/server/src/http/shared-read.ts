/**
 * Shares one read among the callers that need it: a caller gets the result of a read that
 * started after it called, never of one already under way (that one may have missed a commit
 * acknowledged just before the call). While a read is under way, every new caller waits for the
 * next one, which starts as soon as the current one settles and answers them all. Under load
 * that is one read per round trip to the database, however many requests arrive meanwhile.
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let underWay: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const start = (): Promise<T> => {
    const started = read();
    underWay = started;
    const settled = () => {
      if (underWay === started) underWay = undefined;
    };
    started.then(settled, settled);
    return started;
  };
  const ignore = () => {};
  return () => {
    if (underWay === undefined) return start();
    next ??= underWay.then(ignore, ignore).then(() => {
      next = undefined;
      return start();
    });
    return next;
  };
}
