/**
 * A response the engine has already serialized: a page of stored JSON documents, sent as one
 * array without being parsed or serialized again. XML, rarer, is rendered from their values.
 */
export class JsonDocuments {
  /**
   * @param headers sent with the answer (a queue page's `Fulfil-Cursor`).
   * @param poll what a long poll needs to know of the page it looked at (long-poll.ts).
   * @param built the JSON array as UTF-8 already (core's `QueuePage.json`), if the engine built it.
   */
  constructor(
    readonly documents: readonly string[],
    readonly headers: Record<string, string> = {},
    readonly poll?: { pending: boolean; storeId: number },
    readonly built?: Uint8Array,
  ) {}

  /** `[` + the documents joined by `,` + `]`: the bytes the engine built, when it built them. */
  json(): string | Buffer {
    const built = this.built;
    return built === undefined
      ? `[${this.documents.join(',')}]`
      : Buffer.from(built.buffer, built.byteOffset, built.byteLength);
  }

  values(): unknown[] {
    return this.documents.map((document) => JSON.parse(document) as unknown);
  }
}
