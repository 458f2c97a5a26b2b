import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ErrorBanner } from './banner.js';
import { Button } from './button.js';
import { Field } from './field.js';
import { type Action, useAction } from './load.js';

/**
 * Asks before an action that cannot be undone (Polaris' Modal, Medusa's Prompt): a modal
 * `<dialog>` whose title names the action and its object ("Cancel order 1001-1?"), a body that
 * says what happens, a button with the verb ("Cancel order") and one that keeps things as they
 * are ("Keep order"), never "Cancel". Escape closes it; Tab stays inside it; the verb acts once.
 * With `reason`, it asks for the reason the timeline records. A refusal shows in it, and it
 * stays open.
 */
export function ConfirmDialog({
  title,
  children,
  confirm,
  keep,
  destructive = true,
  reason,
  onConfirm,
  onClose,
}: {
  title: string;
  children?: ComponentChildren;
  /** The verb: `Cancel order`, `Revoke token`. */
  confirm: string;
  /** The way out: `Keep order`. */
  keep: string;
  destructive?: boolean;
  reason?: { label: string; required?: boolean };
  /** The action, given the reason typed (empty when none); the dialog closes when it resolves. */
  onConfirm: (reason: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [text, setText] = useState('');
  const action: Action = useAction();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    element.showModal();
    const first = element.querySelector<HTMLElement>('input, select, textarea');
    (first ?? element.querySelector<HTMLElement>('[data-keep]'))?.focus();
    return () => element.close();
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    const done = await action.run(async () => {
      await onConfirm(text.trim());
      return true;
    });
    if (done) onClose();
  };
  return (
    <dialog
      ref={dialog}
      class="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => trapTab(event, dialog.current)}
    >
      <form method="dialog" onSubmit={submit}>
        <h2 id={titleId}>{title}</h2>
        <div class="dialog__body">
          {children}
          {reason && (
            <Field label={reason.label} size="full">
              <input
                required={reason.required}
                value={text}
                onInput={(event) => setText(event.currentTarget.value)}
              />
            </Field>
          )}
          <ErrorBanner error={action.error} />
        </div>
        <div class="dialog__actions">
          <button type="button" class="button button--secondary" data-keep onClick={onClose}>
            {keep}
          </button>
          <Button
            type="submit"
            variant={destructive ? 'destructive' : 'primary'}
            busy={action.busy}
          >
            {confirm}
          </Button>
        </div>
      </form>
    </dialog>
  );
}

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

/** Tab past the last control comes back to the first, Shift+Tab the other way. */
function trapTab(event: KeyboardEvent, dialog: HTMLDialogElement | null): void {
  if (event.key !== 'Tab' || !dialog) return;
  const controls = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => !element.hasAttribute('disabled'),
  );
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
