import { notFound } from '../http/api-errors';

/** DRF StandardPagination (weblate-api.md §3): 50 per page, at most 1000; `/api/units/` uses LargePagination. */
export interface PaginationPolicy {
  defaultSize: number;
  maxSize: number;
}

export const STANDARD_PAGINATION: PaginationPolicy = { defaultSize: 50, maxSize: 1000 };
export const LARGE_PAGINATION: PaginationPolicy = { defaultSize: 200, maxSize: 10000 };

export interface PageRequest {
  /** 1-based page number, or 'last'. */
  page: number | 'last';
  size: number;
}

export interface ResolvedPage {
  page: number;
  size: number;
  offset: number;
}

/**
 * The last item any page may reach. No list holds 2^31 rows (unit positions and most ids are PostgreSQL
 * `integer`), and a page past it would be handed to SQL as a number PostgreSQL refuses ("out of range",
 * a 500) or that JavaScript rounds (page=99999999999999999999, issue 10 item 10): such a page is invalid.
 */
const MAX_PAGE_END = 2 ** 31 - 1;

/** `page_size`: a positive integer, clamped to the maximum; anything else falls back to the default. */
export function parsePageRequest(query: Record<string, unknown>, policy: PaginationPolicy = STANDARD_PAGINATION): PageRequest {
  const rawSize = typeof query.page_size === 'string' ? query.page_size : undefined;
  const parsedSize = rawSize !== undefined && /^\d+$/.test(rawSize) ? Number(rawSize) : 0;
  const size = parsedSize > 0 ? Math.min(parsedSize, policy.maxSize) : policy.defaultSize;
  const rawPage = query.page;
  if (rawPage === undefined) return { page: 1, size };
  if (rawPage === 'last') return { page: 'last', size };
  if (typeof rawPage !== 'string' || !/^\d{1,10}$/.test(rawPage)) throw notFound('Invalid page.');
  const page = Number(rawPage);
  if (page < 1 || page * size > MAX_PAGE_END) throw notFound('Invalid page.');
  return { page, size };
}

/** Resolves the page against the total; a page past the end is 404 `Invalid page.` (page 1 always exists). */
export function resolvePage(request: PageRequest, count: number): ResolvedPage {
  const pages = Math.max(1, Math.ceil(count / request.size));
  const page = request.page === 'last' ? pages : request.page;
  if (page > pages) throw notFound('Invalid page.');
  return { page, size: request.size, offset: (page - 1) * request.size };
}
