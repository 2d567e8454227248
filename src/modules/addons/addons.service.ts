import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { scopeQuerySql } from '../../common/auth/access-sql';
import { ApiValidationError, notFound } from '../../common/http/api-errors';
import type { ApiCaller, RequestContext } from '../../common/http/request-context';
import { resolvePage, type PageRequest, type ResolvedPage } from '../../common/pagination/page-params';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { recordChanges } from '../changes/change-recorder';
import type { AddonRow } from './addon.response';
import {
  checkWebhookTarget,
  parseWebhookConfiguration,
  WEBHOOK_ADDON,
  WebhookConfigurationError,
  type WebhookConfiguration,
} from './webhook-configuration';
import type { WebhookDeliveryRow } from './webhook-delivery.response';

// Weblate's add-ons API (integration.md §3, weblate-api.md §5.12) for the one add-on Glossa has, the webhook.
// Who may do what (§3.3): component add-ons need `component.edit`, project add-ons `project.edit`. Like the
// newest Weblate, the add-on routes show only add-ons the caller can manage: their configuration names the
// target of someone's integration, so to anyone else an add-on does not exist (404), as invisible objects.
// Installing without the permission is 403 "Can not create addon" (4.x); errors use the 4.x texts (§3.2).

/** Change actions Weblate records for add-ons (weblate-api.md §8.1). */
const ACTION_ADDON_CREATE = 60;
const ACTION_ADDON_CHANGE = 61;
const ACTION_ADDON_REMOVE = 62;

/** Add-ons one component or project may have: each change is sent once per webhook, so the count is bounded. */
export const MAX_ADDONS_PER_SCOPE = 10;

/** Add-on names Glossa can install. */
const SUPPORTED_ADDONS: readonly string[] = [WEBHOOK_ADDON];

const ADDON_COLUMNS = `a.id, a.name, a.configuration, a.project_id, a.component_id, p.slug AS project_slug, c.slug AS component_slug
  FROM addons a JOIN projects p ON p.id = a.project_id LEFT JOIN components c ON c.id = a.component_id`;

interface StoredAddon extends AddonRow {
  project_id: number;
  component_id: number | null;
}

/** Where an add-on is installed, by the slugs of the request path. */
export interface AddonScope {
  project: string;
  component?: string;
}

@Injectable()
export class AddonsService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Add-ons the caller can manage, by id. */
  async list(caller: ApiCaller | null, request: PageRequest): Promise<{ page: ResolvedPage; count: number; items: AddonRow[] }> {
    const filter = this.manageableSql(caller);
    const [{ count }]: Array<{ count: number }> = await this.dataSource.query(`SELECT count(*)::int AS count FROM addons a WHERE ${filter}`);
    const page = resolvePage(request, count);
    const items: AddonRow[] = await this.dataSource.query(`SELECT ${ADDON_COLUMNS} WHERE ${filter} ORDER BY a.id LIMIT $1 OFFSET $2`, [
      page.size,
      page.offset,
    ]);
    return { page, count, items };
  }

  /** The add-on of `/api/addons/<id>/`, when the caller may manage it; 404 otherwise. */
  async get(ctx: RequestContext, id: string): Promise<StoredAddon> {
    const [row]: StoredAddon[] = /^\d{1,9}$/.test(id) ? await this.dataSource.query(`SELECT ${ADDON_COLUMNS} WHERE a.id = $1`, [Number(id)]) : [];
    // ctx's permissions are those on the add-on's component or project (scope-access.ts, kind `addon`).
    if (!row || !ctx.scopeFound || !ctx.can(row.component_id === null ? 'project.edit' : 'component.edit')) throw notFound();
    return row;
  }

  /** Installs an add-on on the project or component the path names (the route checked the permission). */
  async create(ctx: RequestContext, scope: AddonScope, body: unknown): Promise<AddonRow> {
    const input = bodyObject(body);
    const name = input.name;
    if (name === undefined || name === null || name === '') throw new ApiValidationError({ name: ['This field is required.'] });
    if (typeof name !== 'string' || !SUPPORTED_ADDONS.includes(name)) throw new ApiValidationError({ name: [`Addon not found: ${String(name).slice(0, 200)}`] });
    const configuration = await this.validConfiguration(input.configuration ?? {});
    const [target]: Array<{ project_id: number; component_id: number | null }> = await this.dataSource.query(
      scope.component === undefined
        ? 'SELECT p.id AS project_id, NULL::int AS component_id FROM projects p WHERE p.slug = $1'
        : 'SELECT p.id AS project_id, c.id AS component_id FROM components c JOIN projects p ON p.id = c.project_id WHERE p.slug = $1 AND c.slug = $2',
      scope.component === undefined ? [scope.project] : [scope.project, scope.component],
    );
    if (!target) throw notFound();
    const id = await this.dataSource.transaction(async (manager) => {
      // Serialises installs on one scope, so concurrent requests cannot pass the bound together.
      await manager.query('SELECT 1 FROM projects WHERE id = $1 FOR UPDATE', [target.project_id]);
      const [{ count }]: Array<{ count: number }> = await manager.query(
        'SELECT count(*)::int AS count FROM addons WHERE project_id = $1 AND component_id IS NOT DISTINCT FROM $2',
        [target.project_id, target.component_id],
      );
      if (count >= MAX_ADDONS_PER_SCOPE) {
        throw new ApiValidationError({ name: [`Can not install more than ${MAX_ADDONS_PER_SCOPE} add-ons here: ${name}`] });
      }
      const [row]: Array<{ id: number }> = await manager.query(
        'INSERT INTO addons (name, project_id, component_id, configuration) VALUES ($1, $2, $3, $4::jsonb) RETURNING id',
        [name, target.project_id, target.component_id, JSON.stringify(configuration)],
      );
      await this.record(manager, ctx, ACTION_ADDON_CREATE, { ...target, name });
      return row.id;
    });
    return this.load(id);
  }

  /**
   * PUT replaces the configuration; PATCH lays the keys it sends over the stored ones (a Glossa choice:
   * Weblate validates a PATCH's configuration as a whole). The name cannot change. Saving resumes delivery
   * stopped by a 410 answer.
   */
  async update(ctx: RequestContext, id: string, body: unknown, mode: 'replace' | 'update'): Promise<AddonRow> {
    const addon = await this.get(ctx, id);
    const input = bodyObject(body);
    if (input.name !== undefined && input.name !== addon.name) throw new ApiValidationError({ name: ['Can not change addon name'] });
    const stored = addon.configuration as unknown as WebhookConfiguration;
    let submitted = input.configuration ?? (mode === 'update' ? {} : undefined);
    if (mode === 'update' && isPlainObject(submitted)) submitted = { ...stored, ...submitted };
    const configuration = await this.validConfiguration(submitted ?? {}, stored);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`UPDATE addons SET configuration = $2::jsonb, disabled_at = NULL, disabled_reason = '' WHERE id = $1`, [
        addon.id,
        JSON.stringify(configuration),
      ]);
      await this.record(manager, ctx, ACTION_ADDON_CHANGE, addon);
    });
    return this.load(addon.id);
  }

  async remove(ctx: RequestContext, id: string): Promise<void> {
    const addon = await this.get(ctx, id);
    await this.dataSource.transaction(async (manager) => {
      await this.record(manager, ctx, ACTION_ADDON_REMOVE, addon);
      await manager.query('DELETE FROM addons WHERE id = $1', [addon.id]);
    });
  }

  /** The delivery log of a webhook add-on, newest first. */
  async deliveries(ctx: RequestContext, id: string, request: PageRequest): Promise<{ page: ResolvedPage; count: number; items: WebhookDeliveryRow[] }> {
    const addon = await this.get(ctx, id);
    const [{ count }]: Array<{ count: number }> = await this.dataSource.query('SELECT count(*)::int AS count FROM webhook_deliveries WHERE addon_id = $1', [addon.id]);
    const page = resolvePage(request, count);
    const items: WebhookDeliveryRow[] = await this.dataSource.query(
      `SELECT id::text AS id, change_id::text AS change_id, webhook_id, state, attempts, status_code, duration_ms, error, response,
              created::text AS created, last_attempt_at::text AS last_attempt_at, next_attempt_at::text AS next_attempt_at
         FROM webhook_deliveries WHERE addon_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
      [addon.id, page.size, page.offset],
    );
    return { page, count, items };
  }

  private async load(id: number): Promise<AddonRow> {
    const [row]: AddonRow[] = await this.dataSource.query(`SELECT ${ADDON_COLUMNS} WHERE a.id = $1`, [id]);
    return row;
  }

  private async validConfiguration(raw: unknown, stored?: WebhookConfiguration): Promise<WebhookConfiguration> {
    try {
      const configuration = parseWebhookConfiguration(raw, stored);
      await checkWebhookTarget(configuration.webhook_url, this.config.webhooks.hosts, this.config.webhooks.hostLookup);
      return configuration;
    } catch (error) {
      if (error instanceof WebhookConfigurationError) throw new ApiValidationError({ configuration: [error.text] });
      throw error;
    }
  }

  private async record(
    manager: EntityManager,
    ctx: RequestContext,
    action: number,
    addon: { project_id: number; component_id: number | null; name: string },
  ): Promise<void> {
    const userId = ctx.caller?.id ?? null;
    await recordChanges(manager, [
      { action, projectId: addon.project_id, componentId: addon.component_id, translationId: null, languageId: null, unitId: null, userId, authorId: userId, target: addon.name },
    ]);
  }

  /** SQL condition on `addons a`: the caller holds the permission that manages it (superusers manage all). */
  private manageableSql(caller: ApiCaller | null): string {
    if (caller?.isSuperuser) return 'TRUE';
    const scope = scopeQuerySql(caller, { project: 'a.project_id', component: 'a.component_id', language: 'NULL::int' });
    return `EXISTS (SELECT 1 FROM (${scope}) s WHERE s.project_visible AND s.visible
                      AND (CASE WHEN a.component_id IS NULL THEN 'project.edit' ELSE 'component.edit' END) = ANY (s.permissions))`;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (isPlainObject(body)) return body;
  const got = Array.isArray(body) ? 'list' : typeof body === 'string' ? 'str' : typeof body === 'boolean' ? 'bool' : typeof body === 'number' ? 'int' : 'NoneType';
  throw new ApiValidationError({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] });
}
