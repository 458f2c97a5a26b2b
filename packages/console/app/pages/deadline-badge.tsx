import type { DeadlineStatus } from '@fulfil/core';
import { Badge } from '../ui/badge.js';
import { dateTime } from '../ui/format.js';
import { DEADLINE } from '../ui/words.js';

/**
 * An order's deadline as the server read it (docs/deadlines.md): its status in words on its
 * tone, and when it must leave, in the operator's own time zone. Nothing for an order without
 * one.
 */
export function DeadlineBadge({
  status,
  fulfillBy,
}: {
  status: DeadlineStatus | null;
  fulfillBy: string | null;
}) {
  if (fulfillBy === null) return <>None</>;
  return (
    <>
      {status && (
        <Badge tone={DEADLINE[status].tone} title={status}>
          {DEADLINE[status].words}
        </Badge>
      )}{' '}
      <time dateTime={`${fulfillBy.replace(' ', 'T')}Z`}>by {dateTime(fulfillBy)}</time>
    </>
  );
}
