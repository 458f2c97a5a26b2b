/**
 * The part of `fetch` the client uses, written out so that its types need neither the DOM
 * library nor @types/node: the global `fetch` of Node 20+ and of browsers fits it.
 */
export interface FetchInit {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignalLike;
}

/** An AbortSignal, as far as fetch needs one. */
export interface AbortSignalLike {
  readonly aborted: boolean;
}

export interface FetchResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponseLike>;
