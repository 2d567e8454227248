import { ApiValidationError } from '../../common/http/api-errors';
import { decodeFeedPosition, FEED_START, type FeedPosition } from './change-feed';

// Where a cursor-paginated list or a change stream starts (issue 14 item 4). Weblate has no cursor on its
// changes lists (integration.md §5.1); DRF's CursorPagination names its parameter `cursor` and refuses a token
// it cannot read with "Invalid cursor", which Glossa answers as a field error (400) like its other filters.
// The token is a feed position (change-feed.ts): changes are handed out by writing transaction, each only once every older one has ended, so a cursor never
// skips a change whose transaction committed after a later id's, and inserts never shift a page.

/** The last non-empty value of a query parameter (django-filter ignores empty ones), or undefined. */
function lastValue(raw: unknown): string | undefined {
  const list = (Array.isArray(raw) ? raw : [raw]).filter((value): value is string => typeof value === 'string' && value !== '');
  return list[list.length - 1];
}

/** Whether the query names a cursor position (so a list answers with the cursor envelope). */
export function namesCursor(query: Record<string, unknown>, extraNames: readonly string[] = []): boolean {
  return ['cursor', 'id__gt', ...extraNames].some((name) => lastValue(query[name]) !== undefined);
}

/** Finds the position just after a change id; null when there is no such change. */
export type PositionOfChange = (id: string) => Promise<FeedPosition | null>;

/**
 * The position named by `cursor` (an opaque token), by `id__gt` (after that change, in feed order; 0 is the
 * beginning), or by one of `extraNames` (the stream's `last_event_id`), the first present in that order; undefined
 * when none is. A token that is not one, or an id that names no change, is 400 on its parameter.
 */
export async function parseCursorParameters(
  query: Record<string, unknown>,
  positionOf: PositionOfChange,
  extraNames: readonly string[] = [],
): Promise<FeedPosition | undefined> {
  for (const name of ['cursor', ...extraNames]) {
    const token = lastValue(query[name]);
    if (token === undefined) continue;
    const position = decodeFeedPosition(token);
    if (position === null) throw new ApiValidationError({ [name]: ['Invalid cursor'] });
    return position;
  }
  const id = lastValue(query.id__gt);
  if (id === undefined) return undefined;
  // Django's NumberFilter text for a value that is not a number.
  if (!/^\d{1,18}$/.test(id)) throw new ApiValidationError({ id__gt: ['Enter a number.'] });
  if (/^0+$/.test(id)) return FEED_START;
  const position = await positionOf(String(BigInt(id)));
  if (position === null) throw new ApiValidationError({ id__gt: ['No change has this id.'] });
  return position;
}
