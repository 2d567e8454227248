import type { LinkBuilder } from '../links/link-builder';
import type { RawJson } from '../serialization/json-writer';
import type { ResolvedPage } from './page-params';

export interface ListEnvelope<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** A list envelope whose results are one JSON array text built by PostgreSQL (unit.response.ts unitPageJsonSql). */
export type RawListEnvelope = Omit<ListEnvelope<never>, 'results'> & { results: RawJson };

export interface PageContext {
  links: LinkBuilder;
  path: string;
  query: Record<string, unknown>;
}

/**
 * The list envelope of api-spec.md. `next`/`previous` are the request URL with `page` replaced; the link to
 * page 1 drops `page` entirely, as DRF's PageNumberPagination does (weblate-api.md §3).
 */
export function listEnvelope<R>(context: PageContext, page: ResolvedPage, count: number, results: R): Omit<ListEnvelope<never>, 'results'> & { results: R } {
  const hasNext = page.page * page.size < count;
  const next = hasNext ? context.links.withQuery(context.path, context.query, { page: String(page.page + 1) }) : null;
  let previous: string | null = null;
  if (page.page > 1) {
    previous = context.links.withQuery(context.path, context.query, { page: page.page === 2 ? null : String(page.page - 1) });
  }
  return { count, next, previous, results };
}

/** The envelope of a cursor-paginated list: DRF's CursorPagination shape (no `count`), forward only. */
export interface CursorEnvelope<T> {
  next: string | null;
  previous: null;
  results: T[];
}

/**
 * `next` is the request URL with `cursor` set to the token after the last result (and `id__gt`/`page`, which
 * the cursor replaces, dropped); null when the page is empty, since nothing more is readable yet and the
 * request's own URL is where to ask again. A client can thus keep following `next` as new items arrive.
 */
export function cursorEnvelope<T>(context: PageContext, nextCursor: string | null, results: T[]): CursorEnvelope<T> {
  const next = nextCursor === null ? null : context.links.withQuery(context.path, context.query, { cursor: nextCursor, id__gt: null, page: null });
  return { next, previous: null, results };
}
