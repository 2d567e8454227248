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

/** A host (and port) as it may appear in a link: a name, an IPv4 address or a bracketed IPv6 address. */
const PLAIN_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Whether the request came through a proxy TRUST_PROXY names, which sent X-Forwarded-Host. */
function forwardedByTrustedProxy(request: Request): boolean {
  if (request.get('x-forwarded-host') === undefined) return false;
  const trust = request.app.get('trust proxy fn') as ((address: string | undefined, hop: number) => boolean) | undefined;
  return trust?.(request.socket.remoteAddress, 0) === true;
}

/**
 * The origin API links start with (issue 10 item 10: they followed any Host header, so a forged one put an
 * attacker's host into every `url`, `next` and `*_url` a cache or a client would keep):
 * - through a proxy TRUST_PROXY trusts, with X-Forwarded-Host: the forwarded scheme and host;
 * - otherwise in production: SITE_URL (Weblate builds every absolute URL from its configured site);
 * - otherwise (development, tests): the request's own scheme and Host header, as before, or SITE_URL
 *   when the header is missing or is not a plain host name or address.
 */
export function apiOriginOf(request: Request, config: Pick<AppConfig, 'siteUrl' | 'production'>): string {
  if (forwardedByTrustedProxy(request) && PLAIN_HOST.test(request.host)) return `${request.protocol}://${request.host}`;
  if (config.production) return config.siteUrl;
  const host = request.get('host');
  return host !== undefined && PLAIN_HOST.test(host) ? `${request.protocol}://${host}` : config.siteUrl;
}

/**
 * Builds the absolute links of one response. API links use the origin apiOriginOf picks and carry the
 * `format` parameter (spec rule 3: always `format=api`; with LINK_FORMAT=request only when the request had
 * one, as DRF does, which `wlc download --convert` needs). Web links use SITE_URL and carry no `format`
 * (architecture.md "The contract").
 */
export class LinkBuilder {
  /**
   * What every API link ends with (`?format=api`, or nothing), encoded once per response rather than once per
   * link: a translation detail writes about twenty links (docs/performance.md, "The data path of a read, session 9").
   */
  private readonly apiSuffix: string;

  constructor(
    readonly origin: string,
    private readonly siteUrl: string,
    /** The `format` value API links carry, or null for none. */
    readonly formatValue: string | null,
  ) {
    this.apiSuffix = formatValue === null ? '' : `?format=${encodeURIComponent(formatValue)}`;
  }

  /** `query` is the request's parsed query when the caller has it: Express 5 parses it again on every read of request.query. */
  static forRequest(request: Request, config: Pick<AppConfig, 'siteUrl' | 'linkFormat' | 'production'>, query: Record<string, unknown> = request.query): LinkBuilder {
    const origin = apiOriginOf(request, config);
    const requested = typeof query.format === 'string' ? query.format : null;
    const formatValue = config.linkFormat === 'always' ? 'api' : requested;
    return new LinkBuilder(origin, config.siteUrl, formatValue);
  }

  /** Absolute API link for a path such as `/api/projects/demo/`. */
  api(path: string): string {
    return `${this.origin}${path}${this.apiSuffix}`;
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
