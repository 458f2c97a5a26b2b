import { Button } from './button.js';

/** An active filter as the operator reads it ("Status: Failed"), and how to take it away. */
export interface Chip {
  label: string;
  onRemove: () => void;
}

/**
 * The filters a list applies, each removable on its own, and all at once (Polaris' Filters and
 * their applied filters): nothing is filtered without it showing.
 */
export function FilterBar({
  chips,
  onClearAll,
}: {
  chips: readonly Chip[];
  onClearAll: () => void;
}) {
  if (chips.length === 0) return null;
  return (
    <div class="filter-bar">
      <ul class="chips" aria-label="Filters applied">
        {chips.map((chip) => (
          <li key={chip.label} class="chip">
            <span>{chip.label}</span>
            <button
              type="button"
              class="chip__remove"
              aria-label={`Remove filter ${chip.label}`}
              onClick={chip.onRemove}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      {chips.length > 1 && (
        <Button variant="plain" onClick={onClearAll}>
          Clear all
        </Button>
      )}
    </div>
  );
}
