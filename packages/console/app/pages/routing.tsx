import { useState } from 'preact/hooks';
import { api, type RoutingPreview, seg } from '../api.js';
import { Banner, ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { Field } from '../ui/field.js';
import { useAction } from '../ui/load.js';
import { Page } from '../ui/page.js';

/** `SKU-1 2` (or `SKU-1 × 2`, or `SKU-1`: one) per line, as the preview's sales order lines. */
export function parseLines(text: string): { sku: string; qty: number }[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [sku = '', qty] = line.split(/\s*[×x*]\s*|\s+/);
      return { sku, qty: qty === undefined ? 1 : Number(qty) };
    });
}

/** A sales order to try: what the form asks, the rest as plain as intake takes it. */
function salesOrderOf(form: {
  lines: string;
  country: string;
  city: string;
  postcode: string;
  latitude: string;
  longitude: string;
  pinned: string;
}) {
  const address = {
    firstname: '',
    lastname: '',
    email: '',
    street: '',
    city: form.city,
    postcode: form.postcode,
    region: '',
    country_id: form.country.trim().toUpperCase(),
    telephone: '',
    company: '',
    vat_id: '',
  };
  return {
    sales_order_id: 1,
    sales_order_number: 'PREVIEW',
    ...(form.pinned ? { warehouse_code: form.pinned } : {}),
    customer_firstname: '',
    customer_lastname: '',
    customer_email: '',
    customer_is_guest: true,
    payment: { method_code: '', method_name: '' },
    shipping: { method_code: '', method_name: '', internal_method_code: '' },
    billing_address: address,
    shipping_address: {
      ...address,
      ...(form.latitude !== '' || form.longitude !== ''
        ? { latitude: Number(form.latitude), longitude: Number(form.longitude) }
        : {}),
    },
    items: parseLines(form.lines).map((line) => ({ ...line, name: line.sku })),
  };
}

/**
 * Try a sales order against the store's routing rules and stock as they are now
 * (docs/routing.md, Preview): where intake would send each line, and why, in words. Nothing is
 * written: the page can be used as often as one likes.
 */
export function RoutingPage({ store }: { store: string }) {
  const [form, setForm] = useState({
    lines: '',
    country: '',
    city: '',
    postcode: '',
    latitude: '',
    longitude: '',
    pinned: '',
  });
  const [preview, setPreview] = useState<RoutingPreview>();
  const action = useAction();
  const set = (field: keyof typeof form) => (event: { currentTarget: { value: string } }) =>
    setForm({ ...form, [field]: event.currentTarget.value });
  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await action.run(() =>
      api<RoutingPreview>('POST', `stores/${seg(store)}/routing/preview`, salesOrderOf(form)),
    );
    setPreview(answer);
  };
  return (
    <Page
      title="Routing preview"
      subtitle="Where an order would go now, by the store's routing rules and stock, and why. Nothing is written."
    >
      <Card title="A sales order to try">
        <form class="stack" onSubmit={submit}>
          <Field
            label="Lines"
            hint="One per line: the sku, then the quantity (SKU-1 2)."
            size="long"
          >
            <textarea rows={4} required value={form.lines} onInput={set('lines')} />
          </Field>
          <div class="form-row">
            <Field label="Country" hint="ISO code, such as IT" size="short">
              <input required value={form.country} onInput={set('country')} />
            </Field>
            <Field label="City">
              <input value={form.city} onInput={set('city')} />
            </Field>
            <Field label="Postcode" size="short">
              <input value={form.postcode} onInput={set('postcode')} />
            </Field>
          </div>
          <div class="form-row">
            <Field label="Latitude (optional)" size="short">
              <input inputMode="decimal" value={form.latitude} onInput={set('latitude')} />
            </Field>
            <Field label="Longitude (optional)" size="short">
              <input inputMode="decimal" value={form.longitude} onInput={set('longitude')} />
            </Field>
            <Field label="Pinned warehouse (optional)">
              <input value={form.pinned} onInput={set('pinned')} />
            </Field>
          </div>
          <div>
            <Button type="submit" variant="primary" busy={action.busy}>
              Preview
            </Button>
          </div>
        </form>
      </Card>
      <ErrorBanner error={action.error} />
      {preview && <PreviewAnswer preview={preview} />}
    </Page>
  );
}

function PreviewAnswer({ preview }: { preview: RoutingPreview }) {
  return (
    <Card title="Where it would go">
      {preview.taken_in ? (
        <ul class="plain-list" aria-label="Fulfillment orders">
          {preview.fulfillment_orders.map((order) => (
            <li key={order.warehouse_code}>
              <strong>{order.warehouse_code}</strong>:{' '}
              {order.items.map((item) => `${item.qty} × ${item.sku}`).join(', ')}
            </li>
          ))}
        </ul>
      ) : (
        <Banner tone="warning" title="Intake would refuse it">
          <p>{preview.refusal}</p>
        </Banner>
      )}
      <h3>Why, line by line</h3>
      <ol class="plain-list" aria-label="Why">
        {preview.words.map((words, index) => (
          <li key={index}>{words}</li>
        ))}
      </ol>
      {preview.by === 'router' && (
        <p class="subtle">This installation routes by code of its own: its rules are not used.</p>
      )}
    </Card>
  );
}
