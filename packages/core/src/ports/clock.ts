/** Where the engine reads the time, so tests can hold it still or move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  #now: Date;

  constructor(start: Date | string = '2026-01-01T00:00:00Z') {
    this.#now = new Date(start);
  }

  now(): Date {
    return new Date(this.#now);
  }

  set(to: Date | string): void {
    this.#now = new Date(to);
  }

  advance(ms: number): void {
    this.#now = new Date(this.#now.getTime() + ms);
  }
}
