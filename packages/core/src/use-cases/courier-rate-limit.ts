/**
 * One token bucket per carrier account, in this process (docs/couriers.md): `rate` calls a second
 * on average, bursts of up to `rate` calls (at least one). Several processes each hold their own
 * bucket, so an account shared by n processes is configured at its carrier limit divided by n.
 */
export class CourierRateLimiter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /**
   * Resolves true once a call may go, false when `signal` aborts first (the call's deadline came
   * while waiting its turn: nothing was sent).
   */
  async take(account: string, rate: number, signal: AbortSignal): Promise<boolean> {
    const burst = Math.max(1, rate);
    for (;;) {
      if (signal.aborted) return false;
      const now = this.#now();
      const bucket = this.#buckets.get(account) ?? { tokens: burst, at: now };
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) * rate) / 1000);
      bucket.at = now;
      this.#buckets.set(account, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return true;
      }
      const waitMs = Math.ceil(((1 - bucket.tokens) * 1000) / rate);
      await new Promise<void>((done) => {
        const timer = setTimeout(done, waitMs);
        signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            done();
          },
          { once: true },
        );
      });
    }
  }
}
