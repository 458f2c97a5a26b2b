import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * Every page's frame (Polaris' Page and Layout): a header with the title, the object's status
 * badge, a line about it, at most one primary action and a group of secondary ones; then the
 * main column and, when there is one, a narrow side column beside it from 1024 px, after it on
 * a phone. The title takes the focus when the page opens, so a screen reader says where.
 */
export function Page({
  title,
  badge,
  subtitle,
  primary,
  secondary,
  side,
  sideLabel = 'Details',
  children,
}: {
  title: ComponentChildren;
  badge?: ComponentChildren;
  subtitle?: ComponentChildren;
  primary?: ComponentChildren;
  secondary?: ComponentChildren;
  side?: ComponentChildren;
  sideLabel?: string;
  children?: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div class="page">
      <header class="page__header">
        <div class="page__heading">
          <div class="page__title">
            <h1 tabIndex={-1} ref={heading}>
              {title}
            </h1>
            {badge}
          </div>
          {subtitle && <div class="page__subtitle">{subtitle}</div>}
        </div>
        {(primary || secondary) && (
          <div class="page__actions">
            {secondary}
            {primary}
          </div>
        )}
      </header>
      {side ? (
        <div class="page__layout">
          <div class="page__main">{children}</div>
          <aside class="page__side" aria-label={sideLabel}>
            {side}
          </aside>
        </div>
      ) : (
        <div class="page__main">{children}</div>
      )}
    </div>
  );
}
