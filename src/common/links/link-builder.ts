import type { Request } from 'express';
import type { AppConfig } from '../../config/app-config';

/** Characters that encodeSegment leaves as they are (unreserved plus the readable sub-delimiters). */
const SAFE_SEGMENT = /^[A-Za-z0-9\-._~@:+$,;=!*'()]*$/;

/**
 * Encodes one path segment the way Django's reverse() does: RFC 3986 escaping, but `@` and the other
 * sub-delimiters stay readable (language codes such as `sr@latin`).
 */
export function encodeSegment(value: string | number): string {
  if (typeof value === 'number') return String(value);
  // Slugs, codes and ids need no escaping: skip the encode-and-unescape round trip (150 links per page).
  if (SAFE_SEGMENT.test(value)) return value;
  return encodeURIComponent(value).replace(/%(40|3A|2B|24|2C|3B|3D|21|2A|27|28|29)/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
}

/** Joins segments into `/a/b/c/` with each segment encoded. */
export function pathOf(...segments: Array<string | number>): string {
  return `/${segments.map(encodeSegment).join('/')}/`;
}

/**
 * Builds the absolute links of one response. API links use the request's own origin and carry the
 * `format` parameter (spec rule 3: always `format=api`; with LINK_FORMAT=request only when the request had
 * one, as DRF does, which `wlc download --convert` needs). Web links use SITE_URL and carry no `format`
 * (architecture.md "The contract").
 */
export class LinkBuilder {
  constructor(
    readonly origin: string,
    private readonly siteUrl: string,
    /** The `format` value API links carry, or null for none. */
    readonly formatValue: string | null,
  ) {}

  static forRequest(request: Request, config: Pick<AppConfig, 'siteUrl' | 'linkFormat'>): LinkBuilder {
    const origin = `${request.protocol}://${request.get('host') ?? 'localhost'}`;
    const requested = typeof request.query.format === 'string' ? request.query.format : null;
    const formatValue = config.linkFormat === 'always' ? 'api' : requested;
    return new LinkBuilder(origin, config.siteUrl, formatValue);
  }

  /** Absolute API link for a path such as `/api/projects/demo/`. */
  api(path: string): string {
    return this.formatValue === null ? `${this.origin}${path}` : `${this.origin}${path}?format=${encodeURIComponent(this.formatValue)}`;
  }

  /** Absolute web-interface link for a path such as `/projects/demo/`. */
  web(path: string): string {
    return `${this.siteUrl}${path}`;
  }

  /**
   * The current request's URL with its query rebuilt: `overrides` replace parameters (null removes one),
   * `format` follows the link rule, and keys are sorted as DRF's replace_query_param leaves them (§3).
   */
  withQuery(path: string, query: Record<string, unknown>, overrides: Record<string, string | null>): string {
    const params = new Map<string, string[]>();
    for (const [key, value] of Object.entries(query)) {
      const values = Array.isArray(value) ? value.map(String) : [String(value)];
      params.set(key, values);
    }
    for (const [key, value] of Object.entries(overrides)) {
      if (value === null) params.delete(key);
      else params.set(key, [value]);
    }
    if (this.formatValue === null) params.delete('format');
    else params.set('format', [this.formatValue]);
    const search = [...params.keys()]
      .sort()
      .flatMap((key) => params.get(key)!.map((value) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`))
      .join('&');
    return `${this.origin}${path}${search ? `?${search}` : ''}`;
  }
}
