/** A partner's accept over HTTP, as the scenarios that need a commit on the server make it. */
import { PARTNER_SECRET, STORE } from './fill-store.js';

const AUTHORIZATION = { authorization: `Bearer ${PARTNER_SECRET}` };

/**
 * Polls `pageUrl` (a pending_accept page) as the partner and accepts its first order whole;
 * false when the page is empty. Throws unless the accept is answered 200.
 */
export async function acceptFirstOfPage(serverUrl: string, pageUrl: string): Promise<boolean> {
  const poll = await fetch(pageUrl, { headers: { ...AUTHORIZATION, accept: 'application/json' } });
  const page = (await poll.json()) as {
    fulfillment_order_number: string;
    items: { id: number; qty: number }[];
  }[];
  const first = page[0];
  if (!first) return false;
  const response = await fetch(`${serverUrl}/rest/${STORE}/V1/fulfillmentOrder/accept`, {
    method: 'POST',
    headers: { ...AUTHORIZATION, 'content-type': 'application/json' },
    body: JSON.stringify({
      order: {
        order_id: first.fulfillment_order_number,
        items: first.items.map((item) => ({ item_id: item.id, qty: item.qty })),
      },
    }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`accept answered ${response.status}`);
  return true;
}
