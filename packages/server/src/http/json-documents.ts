/**
 * A response the engine has already serialized: a page of stored JSON documents, sent as one
 * array without being parsed or serialized again. XML, rarer, is rendered from their values.
 */
export class JsonDocuments {
  constructor(readonly documents: readonly string[]) {}

  /** `[` + the documents joined by `,` + `]`. */
  json(): string {
    return `[${this.documents.join(',')}]`;
  }

  values(): unknown[] {
    return this.documents.map((document) => JSON.parse(document) as unknown);
  }
}
