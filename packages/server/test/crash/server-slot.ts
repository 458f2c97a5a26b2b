import type { ServerProcess } from '../scale-out/support.js';

/**
 * The one server the load talks to, replaced after every kill. Each replacement is a new
 * generation: a request cut off by a kill waits for the next generation before it is retried,
 * so it never goes to a port the dead server left behind (another process may have it now).
 */
export class ServerSlot {
  #server: ServerProcess | null = null;
  #generation = 0;
  #closed = false;
  #waiters: (() => void)[] = [];

  /** Every server that ever held the slot, for their logs. */
  readonly history: ServerProcess[] = [];

  fill(server: ServerProcess): void {
    this.#server = server;
    this.#generation += 1;
    this.history.push(server);
    this.#wake();
  }

  /** Takes the server out (it is about to be killed); requests wait for the next one. */
  empty(): ServerProcess | null {
    const server = this.#server;
    this.#server = null;
    return server;
  }

  /** Ends the load's waiting: every waiting request gives up. */
  close(): void {
    this.#closed = true;
    this.#wake();
  }

  /** The current server and its generation; waits while the slot is empty. */
  async current(): Promise<{ url: string; generation: number }> {
    while (!this.#server) await this.#wait();
    return { url: this.#server.url, generation: this.#generation };
  }

  /** Resolves once a server newer than `generation` holds the slot. */
  async after(generation: number): Promise<void> {
    while (this.#generation <= generation || !this.#server) await this.#wait();
  }

  #wait(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the load was stopped'));
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
