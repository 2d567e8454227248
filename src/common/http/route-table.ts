/** HTTP methods in the order Django REST framework lists them in `Allow` (weblate-api.md §1.3). */
const DRF_METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

export type HttpMethod = (typeof DRF_METHOD_ORDER)[number];

interface RouteEntry {
  pattern: string;
  regex: RegExp;
  methods: Set<string>;
  staticSegments: number;
  /** The parameters' names (`:project` → `project`), in the path's order. */
  paramNames: string[];
  /** The answer for this route, built once (after the last add()). */
  match?: RouteMatch;
}

/**
 * Paths whose answer is remembered (the route, or none). Both the access log and the HTTP contract match every
 * request's path against every route's regex; remembering the answer per path makes that a Map lookup for
 * the paths a busy client repeats (docs/performance.md, "Read floor"). Bounded: emptied when full.
 */
const REMEMBERED_PATHS = 5000;
/** Longer paths are matched each time, so the memory stays under about 5000 × 256 characters. */
const REMEMBERED_PATH_LENGTH = 256;

export interface RouteMatch {
  pattern: string;
  /** The `Allow` header value: the route's methods, HEAD whenever GET is there, OPTIONS always. */
  allow: string;
  allows(method: string): boolean;
}

/** A path's route and its parameters, decoded as Express's router decodes them (`req.params`). */
export interface PathMatch {
  route: RouteMatch;
  /** A new object on each call: the handler's request owns it. */
  params(): Record<string, string>;
}

/** `decoded`: the path's parameter values as usableParameter decoded them, in `names`' order. */
function pathMatchOf(route: RouteMatch, names: readonly string[], decoded: readonly string[]): PathMatch {
  return {
    route,
    params: () => {
      const params: Record<string, string> = {};
      for (let i = 0; i < names.length; i++) params[names[i]] = decoded[i];
      return params;
    },
  };
}

/**
 * `/api/projects/:slug/` → a regex matching one segment per parameter. Matching is exact, as Django's URL
 * resolver is (issue 10 item 4): case-sensitive, no empty segments (`//`), only the single trailing slash
 * may be left off (the one leniency existing clients rely on; it reaches the same handler and guards).
 */
function compilePattern(pattern: string): RegExp {
  const body = pattern
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '([^/]+)' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/**
 * A parameter segment a handler can be given, decoded (null when it cannot be given): it must decode (malformed escapes such as `%E0%A4` would make
 * Express answer 400 with its own page) and hold no NUL, which PostgreSQL refuses in text ("invalid byte
 * sequence", a 500 before). `.` and `..` are what Node leaves of dot segments: no object is named so.
 */
function usableParameter(segment: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return null;
  }
  return decoded !== '.' && decoded !== '..' && !decoded.includes('\0') ? decoded : null;
}

function answerOf(entry: RouteEntry): RouteMatch {
  const methods = new Set(entry.methods);
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  const allow = DRF_METHOD_ORDER.filter((m) => methods.has(m)).join(', ');
  return { pattern: entry.pattern, allow, allows: (method) => methods.has(method.toUpperCase()) };
}

/**
 * Every route the API serves with the methods it accepts. It answers `Allow` and 405 for a path in one
 * place (architecture.md "The contract"), whatever controller handles the path.
 */
export class RouteTable {
  private readonly entries = new Map<string, RouteEntry>();
  private readonly matches = new Map<string, PathMatch | null>();

  add(pattern: string, method: string): void {
    const normalized = pattern.endsWith('/') ? pattern : `${pattern}/`;
    let entry = this.entries.get(normalized);
    if (!entry) {
      const segments = normalized.split('/').filter(Boolean);
      const staticSegments = segments.filter((s) => !s.startsWith(':')).length;
      const paramNames = segments.filter((s) => s.startsWith(':')).map((s) => s.slice(1));
      entry = { pattern: normalized, regex: compilePattern(normalized), methods: new Set(), staticSegments, paramNames };
      this.entries.set(normalized, entry);
    }
    entry.methods.add(method.toUpperCase());
    entry.match = undefined;
    this.matches.clear();
  }

  /** The route for a path. Static segments win over parameters (`/api/units/` before `/api/:x/`). */
  match(path: string): RouteMatch | undefined {
    return this.resolve(path)?.route;
  }

  /** The route for a path with the path's parameters (remembered per path, as `match`). */
  resolve(path: string): PathMatch | undefined {
    if (path.length > REMEMBERED_PATH_LENGTH) return this.find(path) ?? undefined;
    let found = this.matches.get(path);
    if (found === undefined) {
      found = this.find(path);
      if (this.matches.size >= REMEMBERED_PATHS) this.matches.clear();
      this.matches.set(path, found);
    }
    return found ?? undefined;
  }

  private find(path: string): PathMatch | null {
    let best: RouteEntry | undefined;
    let bestValues: string[] = [];
    let bestStatic = -1;
    for (const entry of this.entries.values()) {
      const found = entry.regex.exec(path);
      if (!found) continue;
      const values = found.slice(1).map(usableParameter);
      if (!values.every((value): value is string => value !== null)) continue;
      if (entry.staticSegments > bestStatic) {
        best = entry;
        bestValues = values;
        bestStatic = entry.staticSegments;
      }
    }
    if (!best) return null;
    best.match ??= answerOf(best);
    return pathMatchOf(best.match, best.paramNames, bestValues);
  }

  patterns(): string[] {
    return [...this.entries.keys()];
  }
}
