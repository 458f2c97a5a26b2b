import { type ComponentChildren, cloneElement, type VNode } from 'preact';
import { useId } from 'preact/hooks';

/** How wide a field is, by what it holds: a quantity, a code or a name, a sentence, a line. */
export type FieldSize = 'short' | 'medium' | 'long' | 'full';

/**
 * A control with its visible label above it, tied by id (a label wrapping a select would name it
 * by its options' text too), and an optional hint; as wide as its content needs, never
 * stretched alone across the page.
 */
export function Field({
  label,
  hint,
  size = 'medium',
  children,
}: {
  label: string;
  hint?: ComponentChildren;
  size?: FieldSize;
  children: VNode<{ id?: string; class?: string; 'aria-describedby'?: string }>;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div class={`field field--${size}`}>
      <label for={id}>{label}</label>
      {cloneElement(children, {
        id,
        class: 'control',
        ...(hint ? { 'aria-describedby': hintId } : {}),
      })}
      {hint && (
        <small id={hintId} class="field__hint">
          {hint}
        </small>
      )}
    </div>
  );
}
