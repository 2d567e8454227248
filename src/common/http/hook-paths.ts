/**
 * The code hosts whose push notifications Weblate serves at `/hooks/<service>/` (integration.md §1.1;
 * `forgejo` is a 2026.x addition and not served). Listed here because two layers need the paths: the hooks
 * module routes them and the rate limiter counts them apart from the API (src/ops/rate-limit.ts).
 */
export const HOOK_SERVICES = ['github', 'gitlab', 'bitbucket', 'pagure', 'azure', 'gitea', 'gitee'] as const;
export type HookService = (typeof HOOK_SERVICES)[number];

/** The update hooks take one or two slug segments (no `/`, no empty segment), as the routes do. */
const HOOK_PATH = new RegExp(`^/hooks/(?:${HOOK_SERVICES.join('|')}|update/[^/]+(?:/[^/]+)?)/?$`);

/**
 * Whether `path` is one of the hook routes, spelled exactly as the route table accepts it (case-sensitive,
 * single optional trailing slash): any other spelling answers 404 from the HTTP contract middleware and is
 * counted as an ordinary anonymous request, so no variant escapes both limits.
 */
export function isHookPath(path: string): boolean {
  return HOOK_PATH.test(path);
}
