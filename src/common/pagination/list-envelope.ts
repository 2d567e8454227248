import type { LinkBuilder } from '../links/link-builder';
import type { ResolvedPage } from './page-params';

export interface ListEnvelope<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface PageContext {
  links: LinkBuilder;
  path: string;
  query: Record<string, unknown>;
}

/**
 * The list envelope of api-spec.md. `next`/`previous` are the request URL with `page` replaced; the link to
 * page 1 drops `page` entirely, as DRF's PageNumberPagination does (weblate-api.md §3).
 */
export function listEnvelope<T>(context: PageContext, page: ResolvedPage, count: number, results: T[]): ListEnvelope<T> {
  const hasNext = page.page * page.size < count;
  const next = hasNext ? context.links.withQuery(context.path, context.query, { page: String(page.page + 1) }) : null;
  let previous: string | null = null;
  if (page.page > 1) {
    previous = context.links.withQuery(context.path, context.query, { page: page.page === 2 ? null : String(page.page - 1) });
  }
  return { count, next, previous, results };
}
