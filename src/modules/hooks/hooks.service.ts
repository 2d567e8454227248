import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { componentVisibleSql, projectVisibleSql } from '../../common/auth/access-sql';
import { ApiError, badRequest, methodNotAllowed, notFound } from '../../common/http/api-errors';
import { checkJsonDepth } from '../../common/http/body-parsing';
import type { HookService } from '../../common/http/hook-paths';
import { isFormBody } from '../../common/http/request-body';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { PullTaskScheduler } from '../../sync/pull-task.scheduler';
import { ACTION_HOOK } from '../changes/change-actions';
import { recordChanges } from '../changes/change-recorder';
import { exactlyMatches, exactPatterns, fallbackEvidence, fallbackFullName, fallbackMatches, fallbackPatterns, type MatchMethod } from './hook-matching';
import { type HeaderLookup, HookNotification, HookPayloadError, parseHookPayload } from './hook-payloads';
import { hookMessage, noMatch, updateTriggered, type HookResponse } from './hook.response';

// Weblate's incoming repository hooks (integration.md §1): a code host's push notification, or the legacy
// `/hooks/update/…` call, queues a pull of the components it names (src/sync/pull-task.scheduler.ts), which
// coalesces a flood of them into one pull per component. Nothing here reads data for the caller: the
// answers are Weblate's fixed texts, match counts, and the `<project>/<component>` names of updated
// components that anonymous callers may see anyway (Weblate also names private ones; Glossa does not).

/** At most this many candidate URLs per notification (a real one has at most 14, Bitbucket's templates). */
const MAX_CANDIDATES = 64;
/** Longer candidate URLs are refused (Git hosts' URLs are far shorter). */
const MAX_URL_LENGTH = 2048;
const INVALID_DATA = 'Invalid data in json payload!';

export interface HookAnswer {
  status: number;
  body: HookResponse;
}

/** What the controller hands over of the request. */
export interface HookRequest {
  body: unknown;
  /** Whether the body was sent as JSON (else it is a form whose `payload` holds the JSON text). */
  isJson: boolean;
  header: HeaderLookup;
}

interface CandidateRow {
  id: number;
  project_id: number;
  repo: string;
  branch: string;
  name: string;
  enable_hooks: boolean;
  public: boolean;
}

@Injectable()
export class HooksService {
  private readonly logger = new Logger(HooksService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly pulls: PullTaskScheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `/hooks/update/<project>/[<component>/]` (Weblate ≤ 5.13, deprecated since 2.6): 405 when hooks are off
   * site-wide or for the project, 404 for what an anonymous caller cannot see (Weblate looked the object up
   * with the caller's rights), else the pull of the component, or of every component of the project.
   */
  async updateHook(method: string, projectSlug: string, componentSlug: string | null): Promise<HookAnswer> {
    if (!this.config.enableHooks) throw methodNotAllowed(method);
    const [target]: Array<{ project_id: number; component_id: number | null; enable_hooks: boolean }> =
      componentSlug === null
        ? await this.dataSource.query(
            `SELECT p.id AS project_id, NULL AS component_id, p.enable_hooks FROM projects p WHERE p.slug = $1 AND ${projectVisibleSql(null, 'p')}`,
            [projectSlug],
          )
        : await this.dataSource.query(
            `SELECT p.id AS project_id, c.id AS component_id, p.enable_hooks FROM components c JOIN projects p ON p.id = c.project_id
              WHERE p.slug = $1 AND c.slug = $2 AND ${componentVisibleSql(null, 'c', 'p')}`,
            [projectSlug, componentSlug],
          );
    if (!target) throw notFound();
    if (!target.enable_hooks) throw methodNotAllowed(method);
    // A project updates every component but the linked ones (weblate:// URLs follow their main component).
    const components: Array<{ id: number }> =
      target.component_id !== null
        ? [{ id: target.component_id }]
        : await this.dataSource.query(`SELECT id FROM components WHERE project_id = $1 AND repo NOT LIKE 'weblate://%' ORDER BY id`, [target.project_id]);
    for (const component of components) await this.pulls.schedulePull(component.id);
    return { status: HttpStatus.OK, body: hookMessage('Update triggered') };
  }

  /** `/hooks/<service>/`: a provider's push notification (integration.md §1.3–§1.7). */
  async serviceHook(service: HookService, method: string, request: HookRequest): Promise<HookAnswer> {
    if (!this.config.enableHooks) throw methodNotAllowed(method);
    const payload = decodePayload(request);
    let notification: HookNotification | null;
    try {
      notification = parseHookPayload(service, payload, request.header);
    } catch (error) {
      if (error instanceof HookPayloadError) throw badRequest(`Invalid data in json payload: ${error.message}`);
      throw error;
    }
    if (notification === null) return { status: HttpStatus.CREATED, body: hookMessage('Hook working') };
    assertBoundedCandidates(notification.repos);

    const { rows: matched, method: matchMethod } = await this.matchRepositories(notification);
    const onBranch = notification.branch === null ? matched : matched.filter((row) => row.branch === notification.branch);
    const enabled = onBranch.filter((row) => row.enable_hooks);
    const matchStatus = { repository_matches: matched.length, branch_matches: onBranch.length, enabled_hook_matches: enabled.length };
    if (enabled.length === 0) return { status: HttpStatus.ACCEPTED, body: noMatch(matchStatus) };

    const details = {
      service_long_name: notification.serviceName,
      repo_url: notification.repoUrl,
      repos: notification.repos,
      branch: notification.branch,
      full_name: notification.fullName,
      match_method: matchMethod,
    };
    // 53 "Received repository notification" on each component (Weblate's ACTION_HOOK, no user in 4.x),
    // then its pull; the pull records what it changes (20 merged, 59 per string updated in the repository).
    await recordChanges(
      this.dataSource.manager,
      enabled.map((row) => ({ action: ACTION_HOOK, projectId: row.project_id, componentId: row.id, translationId: null, languageId: null, unitId: null, userId: null, authorId: null, target: '', details })),
    );
    for (const row of enabled) await this.pulls.schedulePull(row.id);
    this.logger.log(`${notification.serviceName} notification for ${notification.fullName} queued ${enabled.length} pull(s)`);
    return { status: HttpStatus.OK, body: updateTriggered(matchStatus, enabled.filter((row) => row.public).map((row) => row.name)) };
  }

  /** Exact matches, else the evidence-based fallback (hook-matching.ts); linked components never match. */
  private async matchRepositories(notification: HookNotification): Promise<{ rows: CandidateRow[]; method: MatchMethod }> {
    const exact = (await this.candidates('c.repo LIKE ANY($1::text[])', exactPatterns(notification.repos))).filter((row) =>
      exactlyMatches(row.repo, notification.repos),
    );
    if (exact.length > 0) return { rows: exact, method: 'exact' };
    const fullName = fallbackFullName(notification.fullName);
    if (fullName === null) return { rows: [], method: 'exact' };
    const evidence = fallbackEvidence(notification.repos, fullName);
    if (evidence.size === 0) return { rows: [], method: 'fallback' };
    const rows = (await this.candidates('lower(c.repo) LIKE ANY($1::text[])', fallbackPatterns(fullName))).filter((row) =>
      fallbackMatches(row.repo, fullName, evidence),
    );
    return { rows, method: 'fallback' };
  }

  private candidates(condition: string, patterns: string[]): Promise<CandidateRow[]> {
    return this.dataSource.query(
      `SELECT c.id, c.project_id, c.repo, c.branch, p.slug || '/' || c.slug AS name, p.enable_hooks,
              ${componentVisibleSql(null, 'c', 'p')} AS public
         FROM components c JOIN projects p ON p.id = c.project_id
        WHERE ${condition} AND c.repo NOT LIKE 'weblate://%'
        ORDER BY p.slug, c.slug`,
      [patterns],
    );
  }
}

/**
 * The notification as JSON: the body itself when sent as JSON, else the form field `payload` (GitHub's
 * form deliveries, old Bitbucket), as Weblate's parse_hook_payload reads it. A non-object or empty object
 * is refused with Weblate's texts.
 */
function decodePayload(request: HookRequest): Record<string, unknown> {
  let payload: unknown = request.body;
  if (!request.isJson) {
    const text = isFormBody(request.body) ? (request.body as Record<string, unknown>).payload : undefined;
    if (typeof text !== 'string') throw badRequest('Could not parse JSON payload!');
    try {
      checkJsonDepth(text);
      payload = JSON.parse(text);
    } catch {
      throw badRequest('Could not parse JSON payload!');
    }
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload) || Object.keys(payload).length === 0) throw badRequest(INVALID_DATA);
  return payload as Record<string, unknown>;
}

function assertBoundedCandidates(repos: readonly string[]): void {
  if (repos.length > MAX_CANDIDATES) throw new ApiError(HttpStatus.BAD_REQUEST, `Invalid data in json payload: more than ${MAX_CANDIDATES} repository URLs`);
  if (repos.some((url) => url.length > MAX_URL_LENGTH)) throw new ApiError(HttpStatus.BAD_REQUEST, 'Invalid data in json payload: Invalid repository in payload');
}
