import type { ComponentChildren } from 'preact';

/** What would be here, and how it gets here (Polaris' EmptyState), where a list has nothing. */
export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty-state">
      <p class="empty-state__title">{title}</p>
      {children && <p>{children}</p>}
    </div>
  );
}
