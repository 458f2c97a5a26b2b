import { href } from '../router.js';

/** A fulfillment order's number, as a link to its page. */
export function OrderLink({ store, number }: { store: string; number: string }) {
  return <a href={href([store, 'orders', number])}>{number}</a>;
}
