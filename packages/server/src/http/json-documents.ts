/**
 * A response the engine has already serialized: a page of stored JSON documents, sent as one
 * array without being parsed or serialized again. XML, rarer, is rendered from their values.
 */
export class JsonDocuments {
  /**
   * @param headers sent with the answer (a queue page's `Fulfil-Cursor`).
   * @param poll what a long poll needs to know of the page it looked at (long-poll.ts).
   */
  constructor(
    readonly documents: readonly string[],
    readonly headers: Record<string, string> = {},
    readonly poll?: { pending: boolean; storeId: number },
  ) {}

  /** `[` + the documents joined by `,` + `]`. */
  json(): string {
    return `[${this.documents.join(',')}]`;
  }

  values(): unknown[] {
    return this.documents.map((document) => JSON.parse(document) as unknown);
  }
}
