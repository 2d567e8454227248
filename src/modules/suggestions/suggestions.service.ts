import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { translationIdVisibleSql } from '../../common/auth/access-sql';
import { ApiValidationError, notFound, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { PLURAL_SEPARATOR } from '../../common/text/word-count';
import { ACTION_SUGGESTION_DELETE } from '../changes/change-actions';
import { recordChanges } from '../changes/change-recorder';
import { assertComponentUnlocked } from '../components/component-locked';
import { parseAcceptSuggestion, parseDeleteSuggestion, parseNewSuggestion, parseVote } from './dto/suggestion-bodies';
import {
  acceptSuggestion,
  castVote,
  insertSuggestions,
  lockSuggestionUnits,
  maxTargetLength,
  refreshSuggestionFlags,
  SUGGESTION_UNIT_SELECT,
  type SuggestionUnit,
} from './suggestion-store';
import { SUGGESTION_SELECT, type SuggestionRow } from './suggestion.response';

type Page = { page: ResolvedPage; count: number; rows: SuggestionRow[] };

/** What adding, voting or accepting answered (checks-suggestions-search.md §5.9). */
export type SuggestionOutcome = { result: 'created'; row: SuggestionRow } | { result: 'voted'; row: SuggestionRow } | { result: 'accepted' };

/** A suggestion with the unit it belongs to, as the write rules need them. */
interface LoadedSuggestion {
  suggestion: { id: number; target: string; userId: number | null };
  unit: SuggestionUnit;
}

const parseId = (raw: string, digits: number): string => {
  if (!new RegExp(`^\\d{1,${digits}}$`).test(raw)) throw notFound();
  return raw;
};

/**
 * Suggestions (checks-suggestions-search.md §5, the REST API of Weblate 2026.8, §5.9). Reads are filtered by
 * the caller's visibility (the scope of the path, or the visible translations for the site-wide list); the
 * object permissions are those of the suggestion's translation (scope-access.ts). Every write keeps
 * has_suggestion and the statistics exact and records Weblate's change (4, 7, 26).
 */
@Injectable()
export class SuggestionsService {
  constructor(private readonly dataSource: DataSource) {}

  /** `/api/suggestions/`: every suggestion the caller may see, newest first (LargePagination). */
  async listAll(ctx: RequestContext, pageRequest: PageRequest): Promise<Page> {
    const where = `EXISTS (SELECT 1 FROM units vu WHERE vu.id = s.unit_id AND ${translationIdVisibleSql(ctx.caller, 'vu.translation_id')})`;
    return this.page(where, [], pageRequest);
  }

  /** `/api/units/{id}/suggestions/`: the unit's suggestions, newest first. The unit's visibility was checked by the guard. */
  async listForUnit(ctx: RequestContext, unitId: string, pageRequest: PageRequest): Promise<Page> {
    if (!ctx.scopeFound) throw notFound();
    return this.page('s.unit_id = $1', [parseId(unitId, 18)], pageRequest);
  }

  async get(ctx: RequestContext, id: string): Promise<SuggestionRow> {
    if (!ctx.scopeFound) throw notFound();
    const row = await this.row(this.dataSource.manager, Number(parseId(id, 9)));
    if (!row) throw notFound();
    return row;
  }

  /**
   * POST `/api/units/{id}/suggestions/` (§5.2): the permission with Weblate's reasons (403), the text (400 on
   * `target`), then similar/duplicate/vote/create in Weblate's order. The author's own +1 is added when
   * voting is on and they may vote, which may accept it at once (auto-accept, §5.5).
   */
  async add(ctx: RequestContext, unitId: string, body: unknown): Promise<SuggestionOutcome> {
    if (!ctx.scopeFound) throw notFound();
    const unit = await this.loadUnit(this.dataSource.manager, parseId(unitId, 18));
    this.checkMayAdd(ctx, unit);
    const forms = parseNewSuggestion(body);
    if (forms.length !== unit.expected_forms) throw new ApiValidationError({ target: ['Number of plurals does not match'] });
    if (forms.every((form) => form === '')) throw new ApiValidationError({ target: ['Please provide a suggestion'] });
    const limit = maxTargetLength(unit.source);
    if (forms.some((form) => [...form].length > limit)) throw new ApiValidationError({ target: ['Translation text too long!'] });
    const text = forms.join(PLURAL_SEPARATOR);
    if (unit.state >= 20 && unit.target === text) throw new ApiValidationError({ target: ['Your suggestion is similar to the current translation!'] });
    const userId = ctx.caller!.id;
    const mayVote = unit.suggestion_voting && ctx.can('suggestion.vote');
    return this.dataSource.transaction(async (manager) => {
      // The unit's row lock makes two identical submissions apply one after the other (one creates, one votes
      // or is a duplicate); with its siblings and translation rows, an auto-accept below keeps the lock order.
      await lockSuggestionUnits(manager, [unit.id]);
      const [existing]: Array<{ id: number; user_id: number | null }> = await manager.query(
        'SELECT id, user_id FROM suggestions WHERE unit_id = $1 AND target = $2 ORDER BY id LIMIT 1',
        [unit.id, text],
      );
      if (existing) {
        if (existing.user_id === userId || !mayVote) throw new ApiValidationError({ target: ['Your suggestion already exists!'] });
        return this.applyVote(manager, unit, existing.id, userId, 1);
      }
      const [id] = await insertSuggestions(manager, userId, this.scopeOf(unit), [{ unitId: unit.id, target: text, source: unit.source, context: unit.context }]);
      if (mayVote) {
        const outcome = await this.applyVote(manager, unit, id, userId, 1);
        if (outcome.result === 'accepted') return outcome;
      }
      return { result: 'created', row: (await this.row(manager, id))! };
    });
  }

  /** POST `/api/suggestions/{id}/accept/` (§5.3): needs suggestion.accept and what editing the unit needs. */
  async accept(ctx: RequestContext, id: string, body: unknown): Promise<void> {
    const loaded = await this.load(ctx, id);
    const { unit } = loaded;
    if (!ctx.can('suggestion.accept')) throw permissionDenied();
    if (unit.state === 100) throw permissionDenied('The string is read-only.');
    assertComponentUnlocked(unit);
    const { approve } = parseAcceptSuggestion(body);
    // Approving, or replacing an approved translation, needs the review right of a review workflow (§5.3, weblate-api.md §2.5).
    const mayReview = unit.translation_review && ctx.can('unit.review');
    if ((approve || unit.state === 30) && !mayReview) throw permissionDenied('Insufficient privileges for approving.');
    if (unit.expected_forms !== loaded.suggestion.target.split(PLURAL_SEPARATOR).length) {
      throw new ApiValidationError({ target: ['Number of plurals does not match'] });
    }
    await this.dataSource.transaction(async (manager) => {
      await lockSuggestionUnits(manager, [unit.id]);
      await acceptSuggestion(manager, unit, loaded.suggestion, ctx.caller!.id, approve ? 30 : 20);
    });
  }

  /** DELETE `/api/suggestions/{id}/` (§5.4): suggestion.delete, or the author's own; records 26 with the reason. */
  async remove(ctx: RequestContext, id: string, body: unknown): Promise<void> {
    const { suggestion, unit } = await this.load(ctx, id);
    const userId = ctx.caller!.id;
    if (!ctx.can('suggestion.delete') && suggestion.userId !== userId) throw permissionDenied();
    const { rejectionReason } = parseDeleteSuggestion(body);
    await this.dataSource.transaction(async (manager) => {
      const deleted: [unknown[], number] = await manager.query('DELETE FROM suggestions WHERE id = $1 RETURNING id', [suggestion.id]);
      if (deleted[1] === 0) throw notFound();
      await recordChanges(manager, [
        {
          ...this.scopeOf(unit),
          action: ACTION_SUGGESTION_DELETE,
          unitId: unit.id,
          userId,
          authorId: suggestion.userId,
          target: suggestion.target,
          details: { source: unit.source, context: unit.context, ...(rejectionReason !== '' ? { rejection_reason: rejectionReason } : {}) },
        },
      ]);
      await refreshSuggestionFlags(manager, [unit.id], [unit.translation_id]);
    });
  }

  /** POST `/api/suggestions/{id}/vote/` (§5.5): voting must be on for the component, then suggestion.vote. */
  async vote(ctx: RequestContext, id: string, body: unknown): Promise<SuggestionOutcome> {
    const { suggestion, unit } = await this.load(ctx, id);
    if (!unit.suggestion_voting) throw permissionDenied('Suggestion voting is disabled.');
    if (!ctx.can('suggestion.vote')) throw permissionDenied();
    const value = parseVote(body);
    return this.dataSource.transaction(async (manager) => {
      await lockSuggestionUnits(manager, [unit.id]);
      return this.applyVote(manager, unit, suggestion.id, ctx.caller!.id, value);
    });
  }

  /**
   * Stores the vote (the caller holds lockSuggestionUnits on the unit); when the component auto-accepts and the sum reaches its threshold, the suggestion is
   * accepted crediting its author (§5.5) — unless the unit cannot take it (read-only, locked), when it stays.
   */
  private async applyVote(manager: EntityManager, unit: SuggestionUnit, suggestionId: number, userId: number, value: number): Promise<SuggestionOutcome> {
    const votes = await castVote(manager, suggestionId, userId, value);
    const threshold = unit.suggestion_autoaccept;
    if (threshold > 0 && votes >= threshold && unit.state !== 100 && !unit.locked) {
      const [row]: Array<{ id: number; target: string; user_id: number | null }> = await manager.query('SELECT id, target, user_id FROM suggestions WHERE id = $1', [suggestionId]);
      const state = unit.state === 30 ? 30 : 20;
      await acceptSuggestion(manager, unit, { id: row.id, target: row.target, userId: row.user_id }, userId, state);
      return { result: 'accepted' };
    }
    return { result: 'voted', row: (await this.row(manager, suggestionId))! };
  }

  /**
   * Weblate's check_suggestion_add with its reasons (§5.2): suggestions on, the string and translation
   * writable, then the role. A source translation takes no suggestions (Weblate: it is read-only for them).
   */
  private checkMayAdd(ctx: RequestContext, unit: SuggestionUnit): void {
    if (!unit.enable_suggestions) throw permissionDenied('Suggestions are turned off for this language. Ask a project administrator to enable them.');
    if (unit.state === 100) throw permissionDenied('The string is read-only.');
    if (unit.is_source) throw permissionDenied('The translation is read-only.');
    if (!ctx.can('suggestion.add')) throw permissionDenied();
  }

  private async load(ctx: RequestContext, id: string): Promise<LoadedSuggestion> {
    if (!ctx.scopeFound) throw notFound();
    const [row]: Array<{ id: number; target: string; user_id: number | null; unit_id: string }> = await this.dataSource.query(
      'SELECT id, target, user_id, unit_id FROM suggestions WHERE id = $1',
      [Number(parseId(id, 9))],
    );
    if (!row) throw notFound();
    return { suggestion: { id: row.id, target: row.target, userId: row.user_id }, unit: await this.loadUnit(this.dataSource.manager, row.unit_id) };
  }

  private async loadUnit(manager: EntityManager, unitId: string): Promise<SuggestionUnit> {
    const [unit]: SuggestionUnit[] = await manager.query(`${SUGGESTION_UNIT_SELECT} WHERE u.id = $1`, [unitId]);
    if (!unit) throw notFound();
    return unit;
  }

  private scopeOf(unit: SuggestionUnit): { projectId: number; componentId: number; translationId: number; languageId: number } {
    return { projectId: unit.project_id, componentId: unit.component_id, translationId: unit.translation_id, languageId: unit.language_id };
  }

  private async row(manager: EntityManager, id: number): Promise<SuggestionRow | undefined> {
    const [row]: SuggestionRow[] = await manager.query(`${SUGGESTION_SELECT} WHERE s.id = $1`, [id]);
    return row;
  }

  /** One count and one page query, whatever the page size. */
  private async page(where: string, params: unknown[], pageRequest: PageRequest): Promise<Page> {
    const [{ count }]: Array<{ count: number }> = await this.dataSource.query(`SELECT count(*)::int AS count FROM suggestions s WHERE ${where}`, params);
    const page = resolvePage(pageRequest, count);
    const rows: SuggestionRow[] = await this.dataSource.query(
      `${SUGGESTION_SELECT} WHERE ${where} ORDER BY s.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.size, page.offset],
    );
    return { page, count, rows };
  }
}
