import { useState } from 'preact/hooks';
import { api, type OrderDetail, orderPath, type Warehouse } from '../../api.js';
import { ErrorBanner } from '../../ui/banner.js';
import { Button } from '../../ui/button.js';
import { Card } from '../../ui/card.js';
import { Checkbox } from '../../ui/checkbox.js';
import { Field } from '../../ui/field.js';
import { plural } from '../../ui/format.js';
import { useAction } from '../../ui/load.js';
import { toast } from '../../ui/toast.js';

/** The override the timeline last recorded, as the select's value ('' follows the store). */
function partialsNow(detail: OrderDetail): string {
  const last = [...detail.timeline].reverse().find((entry) => entry.action === 'allow_partial');
  const allow = last?.details.allow_partial;
  return typeof allow === 'boolean' ? String(allow) : '';
}

function Partials({
  store,
  detail,
  onDone,
}: {
  store: string;
  detail: OrderDetail;
  onDone: () => void;
}) {
  const [partial, setPartial] = useState(partialsNow(detail));
  const action = useAction();
  const number = detail.order.fulfillment_order_number;
  const submit = async (event: Event) => {
    event.preventDefault();
    const allow = partial === '' ? null : partial === 'true';
    const done = await action.run(() =>
      api<OrderDetail>('POST', `${orderPath(store, number)}/allow-partial`, { allow }),
    );
    if (done) {
      toast(`Partial shipments of order ${number} set`);
      onDone();
    }
  };
  return (
    <form class="form-row" onSubmit={submit}>
      <Field label="Partial shipment of this order" size="long">
        <select value={partial} onChange={(event) => setPartial(event.currentTarget.value)}>
          <option value="">As the store's settings say</option>
          <option value="true">Allowed</option>
          <option value="false">Not allowed</option>
        </select>
      </Field>
      <Button type="submit" busy={action.busy}>
        Set partials
      </Button>
      <ErrorBanner error={action.error} />
    </form>
  );
}

interface ChangeProps {
  store: string;
  detail: OrderDetail;
  warehouses: readonly Warehouse[];
  onDone: () => void;
}

/** Lines no partner has accepted yet may move to another active warehouse of the store. */
function MoveLines({ store, detail, warehouses, onDone }: ChangeProps) {
  const [chosen, setChosen] = useState<number[]>([]);
  const movable = detail.order.items.filter((item) => item.status === 'pending_accept');
  const targets = warehouses.filter(
    (warehouse) => warehouse.active && warehouse.code !== detail.order.warehouse_code,
  );
  const [warehouse, setWarehouse] = useState(targets[0]?.code ?? '');
  const action = useAction();
  const number = detail.order.fulfillment_order_number;
  if (movable.length === 0) return null;
  const submit = async (event: Event) => {
    event.preventDefault();
    const done = await action.run(() =>
      api<OrderDetail>('POST', `${orderPath(store, number)}/move-lines`, {
        items: chosen,
        warehouse_code: warehouse,
      }),
    );
    if (done) {
      toast(`${plural(chosen.length, 'line')} of order ${number} moved to ${warehouse}`);
      onDone();
    }
  };
  return (
    <form class="stack" onSubmit={submit}>
      <fieldset class="checkboxes">
        <legend>Move lines not yet accepted to another warehouse</legend>
        {movable.map((item) => (
          <Checkbox
            key={item.id}
            checked={chosen.includes(item.id)}
            onChange={(checked) =>
              setChosen(checked ? [...chosen, item.id] : chosen.filter((id) => id !== item.id))
            }
          >
            {item.qty} × {item.name} ({item.sku})
          </Checkbox>
        ))}
      </fieldset>
      {targets.length === 0 ? (
        <p class="subtle">The store has no other active warehouse to move them to.</p>
      ) : (
        <div class="form-row">
          <Field label="To warehouse">
            <select value={warehouse} onChange={(event) => setWarehouse(event.currentTarget.value)}>
              {targets.map((target) => (
                <option key={target.code} value={target.code}>
                  {target.code}: {target.name}
                </option>
              ))}
            </select>
          </Field>
          <Button type="submit" busy={action.busy} disabled={chosen.length === 0}>
            Move
          </Button>
        </div>
      )}
      <ErrorBanner error={action.error} />
    </form>
  );
}

/** What an operator may change about the order, each only where it applies. */
export function ChangesCard({ store, detail, warehouses, onDone }: ChangeProps) {
  const partials = detail.actions.includes('allow_partial');
  const move = detail.actions.includes('move_lines');
  if (!partials && !move) return null;
  return (
    <Card title="Change this order">
      {partials && <Partials store={store} detail={detail} onDone={onDone} />}
      {move && <MoveLines store={store} detail={detail} warehouses={warehouses} onDone={onDone} />}
    </Card>
  );
}
