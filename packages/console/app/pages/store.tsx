import type { AttentionQueueName } from '@fulfil/core';
import { useState } from 'preact/hooks';
import { api, type Store, seg, type Warehouse } from '../api.js';
import { may, useConsole } from '../context.js';
import { Badge } from '../ui/badge.js';
import { ErrorBanner } from '../ui/banner.js';
import { Button } from '../ui/button.js';
import { Card } from '../ui/card.js';
import { Checkbox } from '../ui/checkbox.js';
import { DataTable } from '../ui/data-table.js';
import { Field } from '../ui/field.js';
import { money } from '../ui/format.js';
import { useAction, useLoad } from '../ui/load.js';
import { Page } from '../ui/page.js';
import { toast } from '../ui/toast.js';
import { FULFILLED_BY, QUEUE } from '../ui/words.js';
import { WarehouseSafetyStock } from './safety-stock.js';
import { StoreCalendar } from './store-calendar.js';
import { calendarWords, WarehouseCalendar } from './warehouse-calendar.js';

const FLAGS = [
  ['partial_items', 'Partial shipment by items'],
  ['partial_qty', 'Partial shipment by quantity'],
  ['reroute', 'Reroute rejected lines to another warehouse'],
] as const;

const QUEUES: readonly AttentionQueueName[] = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
  'pending_invoice',
  'pending_cancellation',
];

/** A cancellation request's hours count from the request, not from the order. */
const thresholdLabel = (queue: AttentionQueueName) =>
  queue === 'pending_cancellation' ? 'Cancellation unanswered' : QUEUE[queue];

type Settings = Store['settings'];

/** The thresholds as the form holds them: text, '' for "never". */
const hoursText = (settings: Settings) =>
  Object.fromEntries(
    QUEUES.map((queue) => [queue, String(settings.attention_after_hours[queue] ?? '')]),
  ) as Record<AttentionQueueName, string>;

function SettingsForm({ store, role }: { store: Store; role: string }) {
  const { reloadStores } = useConsole();
  const [flags, setFlags] = useState(store.settings);
  const [currency, setCurrency] = useState(store.settings.currency ?? '');
  const [hours, setHours] = useState(hoursText(store.settings));
  const action = useAction();
  const admin = may(role, 'admin');
  const save = async (event: Event) => {
    event.preventDefault();
    const settings = {
      partial_items: flags.partial_items,
      partial_qty: flags.partial_qty,
      reroute: flags.reroute,
      when_short: flags.when_short,
      currency: currency.trim() ? currency.trim().toUpperCase() : null,
      attention_after_hours: Object.fromEntries(
        QUEUES.map((queue) => [queue, hours[queue].trim() ? Number(hours[queue]) : null]),
      ),
    };
    const answer = await action.run(() =>
      api<Store>('PUT', `stores/${seg(store.store_code)}`, { settings }),
    );
    if (answer) {
      setFlags(answer.settings);
      setCurrency(answer.settings.currency ?? '');
      setHours(hoursText(answer.settings));
      toast(`Settings of store ${store.store_code} saved`);
      reloadStores();
    }
  };
  return (
    <Card title="Settings">
      <form class="stack" onSubmit={save}>
        <fieldset class="checkboxes" disabled={!admin}>
          <legend>Order flow</legend>
          {FLAGS.map(([name, label]) => (
            <Checkbox
              key={name}
              checked={flags[name] === true}
              disabled={!admin}
              onChange={(checked) => setFlags({ ...flags, [name]: checked })}
            >
              {label}
            </Checkbox>
          ))}
        </fieldset>
        <Field
          label="When a line is short"
          hint="No warehouse has the stock for a line: send it to the best warehouse anyway, or take the order in on hold until stock arrives"
          size="long"
        >
          <select
            value={flags.when_short}
            disabled={!admin}
            onChange={(event) =>
              setFlags({
                ...flags,
                when_short: event.currentTarget.value as Settings['when_short'],
              })
            }
          >
            <option value="route_anyway">Route anyway</option>
            <option value="hold">Hold until stock arrives</option>
          </select>
        </Field>
        <Field
          label="Currency"
          size="short"
          hint={
            currency.trim()
              ? `ISO 4217; amounts read ${safeMoney(1234.5, currency)}`
              : 'ISO 4217, such as EUR; empty: amounts show two decimals, no symbol'
          }
        >
          <input
            value={currency}
            maxLength={3}
            disabled={!admin}
            onInput={(event) => setCurrency(event.currentTarget.value)}
          />
        </Field>
        <fieldset class="checkboxes">
          <legend>
            Hours an order may wait in each queue before the dashboard asks a person (empty: never)
          </legend>
          <div class="form-row">
            {QUEUES.map((queue) => (
              <Field key={queue} label={thresholdLabel(queue)} size="short">
                <input
                  type="number"
                  min="1"
                  max="8760"
                  step="1"
                  disabled={!admin}
                  value={hours[queue]}
                  onInput={(event) => setHours({ ...hours, [queue]: event.currentTarget.value })}
                />
              </Field>
            ))}
          </div>
        </fieldset>
        <ErrorBanner error={action.error} />
        {admin && (
          <div>
            <Button type="submit" variant="primary" busy={action.busy}>
              Save settings
            </Button>
          </div>
        )}
      </form>
    </Card>
  );
}

/** An amount in a currency being typed, or nothing while the code is not one yet. */
function safeMoney(amount: number, currency: string): string {
  try {
    return money(amount, currency.trim().toUpperCase());
  } catch {
    return '…';
  }
}

export function StorePage({ store, role }: { store: string; role: string }) {
  const loaded = useLoad(
    () =>
      Promise.all([
        api<Store>('GET', `stores/${seg(store)}`),
        api<{ warehouses: Warehouse[] }>('GET', `stores/${seg(store)}/warehouses`),
      ]),
    store,
  );
  const action = useAction();
  const admin = may(role, 'admin');
  const toggle = async (warehouse: Warehouse) => {
    const done = await action.run(() =>
      // A PUT replaces the warehouse: every field read goes back, only `active` changed.
      api('PUT', `stores/${seg(store)}/warehouses/${seg(warehouse.code)}`, {
        ...warehouse,
        active: !warehouse.active,
      }),
    );
    if (done) {
      toast(`Warehouse ${warehouse.code} ${warehouse.active ? 'deactivated' : 'activated'}`);
      loaded.reload();
    }
  };
  const [settings, warehouses] = loaded.data ?? [];
  return (
    <Page
      title={`Store ${store}`}
      subtitle={<p>How orders flow through the store, and where they go.</p>}
    >
      <ErrorBanner error={loaded.error ?? action.error} />
      {!loaded.data && !loaded.error && <p aria-live="polite">Loading…</p>}
      {settings && <SettingsForm store={settings} role={role} />}
      {warehouses && (
        <Card title="Warehouses" flush>
          <DataTable<Warehouse>
            label="Warehouses"
            rows={warehouses.warehouses}
            rowKey={(warehouse) => warehouse.code}
            columns={[
              { title: 'Code', primary: true, cell: (warehouse) => warehouse.code },
              { title: 'Name', cell: (warehouse) => warehouse.name },
              { title: 'Fulfilled by', cell: (warehouse) => FULFILLED_BY[warehouse.fulfilled_by] },
              { title: 'Priority', numeric: true, cell: (warehouse) => warehouse.priority },
              { title: 'Calendar', cell: (warehouse) => calendarWords(warehouse) },
              {
                title: 'Safety stock',
                numeric: true,
                cell: (warehouse) =>
                  admin ? (
                    <WarehouseSafetyStock
                      key={warehouse.safety_stock}
                      store={store}
                      warehouse={warehouse}
                      onSaved={loaded.reload}
                    />
                  ) : (
                    warehouse.safety_stock
                  ),
              },
              {
                title: 'State',
                cell: (warehouse) =>
                  warehouse.active ? (
                    <Badge tone="success">Active</Badge>
                  ) : (
                    <Badge tone="neutral">Inactive</Badge>
                  ),
              },
              admin && {
                title: 'Actions',
                cell: (warehouse) => (
                  <Button
                    label={`${warehouse.active ? 'Deactivate' : 'Activate'} ${warehouse.code}`}
                    busy={action.busy}
                    onClick={() => toggle(warehouse)}
                  >
                    {warehouse.active ? 'Deactivate' : 'Activate'}
                  </Button>
                ),
              },
            ]}
          />
        </Card>
      )}
      {settings && admin && <StoreCalendar store={settings} onSaved={loaded.reload} />}
      {warehouses && admin && warehouses.warehouses.length > 0 && (
        <WarehouseCalendar
          store={store}
          warehouses={warehouses.warehouses}
          onSaved={loaded.reload}
        />
      )}
    </Page>
  );
}
