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

/** `page_size`: a positive integer, clamped to the maximum; anything else falls back to the default. */
export function parsePageRequest(query: Record<string, unknown>, policy: PaginationPolicy = STANDARD_PAGINATION): PageRequest {
  const rawSize = typeof query.page_size === 'string' ? query.page_size : undefined;
  const parsedSize = rawSize !== undefined && /^\d+$/.test(rawSize) ? Number(rawSize) : 0;
  const size = parsedSize > 0 ? Math.min(parsedSize, policy.maxSize) : policy.defaultSize;
  const rawPage = query.page;
  if (rawPage === undefined) return { page: 1, size };
  if (rawPage === 'last') return { page: 'last', size };
  if (typeof rawPage !== 'string' || !/^\d+$/.test(rawPage) || Number(rawPage) < 1) throw notFound('Invalid page.');
  return { page: Number(rawPage), size };
}

/** Resolves the page against the total; a page past the end is 404 `Invalid page.` (page 1 always exists). */
export function resolvePage(request: PageRequest, count: number): ResolvedPage {
  const pages = Math.max(1, Math.ceil(count / request.size));
  const page = request.page === 'last' ? pages : request.page;
  if (page > pages) throw notFound('Invalid page.');
  return { page, size: request.size, offset: (page - 1) * request.size };
}
