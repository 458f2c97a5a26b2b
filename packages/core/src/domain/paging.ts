/** Page size of every polling endpoint, fixed by the spec. */
export const PAGE_SIZE = 100;
