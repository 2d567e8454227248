import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiValidationError, notFound, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { refreshTranslationStatistics } from '../../sync/translation-statistics';
import { ACTION_COMMENT, ACTION_COMMENT_DELETE, ACTION_COMMENT_RESOLVE, ACTION_MARKED_EDIT } from '../changes/change-actions';
import { editUnitLabels, sourceReviewLabel, type LabelledUnit } from '../labels/unit-labels';
import { recordChanges } from '../changes/change-recorder';
import { parseNewComment } from './dto/comment-bodies';
import { COMMENT_SELECT, type CommentRow } from './comment.response';

/** The unit a comment is stored on, with what its change record needs (the same facts a label change needs). */
type StoringUnit = LabelledUnit;

/** The unit the path names, with its source unit and the project's source review setting. */
interface PathUnit {
  id: string;
  source_unit_id: string | null;
  is_source: boolean;
  source_review: boolean;
  /** Monolingual component whose source strings can be edited (the report side effect, addReport). */
  editable_source: boolean;
}

const UNIT_ID = /^\d{1,18}$/;
const COMMENT_ID = /^\d{1,9}$/;

/**
 * Comments on units (checks-suggestions-search.md §6). A translation comment is stored on the unit of one
 * language; global and report comments on the source unit of the string (§6.2), so they count there
 * (§6.4). Every write keeps units.has_comment (an unresolved comment exists) and the translation's
 * `have_comment` exact in its transaction and records Weblate's change (3, 64, 65). Weblate has no API to
 * resolve or delete comments; Glossa's routes for them are its own extension and follow Weblate's permission
 * rules (comment.resolve / comment.delete, or the author, §6.3).
 */
@Injectable()
export class CommentsService {
  constructor(private readonly dataSource: DataSource) {}

  /** GET `/api/units/{id}/comments/`: the comments stored on this unit, resolved ones included, by id (§6.5). */
  async list(ctx: RequestContext, unitId: string, pageRequest: PageRequest): Promise<{ page: ResolvedPage; count: number; rows: CommentRow[] }> {
    const id = this.unitId(ctx, unitId);
    const [{ count }]: Array<{ count: number }> = await this.dataSource.query('SELECT count(*)::int AS count FROM comments WHERE unit_id = $1', [id]);
    const page = resolvePage(pageRequest, count);
    const rows: CommentRow[] = await this.dataSource.query(`${COMMENT_SELECT} WHERE cm.unit_id = $1 ORDER BY cm.id LIMIT $2 OFFSET $3`, [id, page.size, page.offset]);
    return { page, count, rows };
  }

  /**
   * POST `/api/units/{id}/comments/` (§6.5): comment.add (403), the body (400), `timestamp`/`user_email` only
   * for project admins (403), then the scope against the unit (400 on `scope`). Records 3 "Comment added"
   * with the text, the change the comment notifications fire on (integration.md §4.2).
   */
  async add(ctx: RequestContext, unitId: string, body: unknown): Promise<CommentRow> {
    const id = this.unitId(ctx, unitId);
    if (!ctx.can('comment.add')) throw permissionDenied();
    const data = parseNewComment(body);
    if ((data.timestamp !== undefined || data.userEmail !== undefined) && !ctx.can('project.edit')) throw permissionDenied();
    const [unit]: PathUnit[] = await this.dataSource.query(
      `SELECT u.id, u.source_unit_id, t.is_source, p.source_review, (c.template <> '' AND c.edit_template) AS editable_source
         FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
         JOIN projects p ON p.id = c.project_id WHERE u.id = $1`,
      [id],
    );
    if (!unit) throw notFound();
    if (data.scope === 'report' && !unit.source_review) throw new ApiValidationError({ scope: ['"report" is not a valid choice as source review is disabled.'] });
    if (data.scope === 'translation' && unit.is_source) throw new ApiValidationError({ scope: ['"translation" is not a valid choice for source units.'] });
    let authorId = ctx.caller!.id;
    if (data.userEmail !== undefined) {
      const [user]: Array<{ id: number }> = await this.dataSource.query('SELECT id FROM users WHERE lower(email) = lower($1) ORDER BY id LIMIT 1', [data.userEmail]);
      if (!user) throw new ApiValidationError({ user_email: [`Object with email=${data.userEmail} does not exist.`] });
      authorId = user.id;
    }
    const storeOn = data.scope === 'translation' ? unit.id : (unit.source_unit_id ?? unit.id);
    return this.dataSource.transaction(async (manager) => {
      const target = await this.storingUnit(manager, storeOn);
      const [{ id: commentId }]: Array<{ id: number }> = await manager.query(
        `INSERT INTO comments (unit_id, comment, user_id, timestamp) VALUES ($1, $2, $3, COALESCE($4::timestamptz, clock_timestamp())) RETURNING id`,
        [target.id, data.comment, authorId, data.timestamp ?? null],
      );
      // The change is the comment author's, as Weblate records it (user_email attributes both; user statistics count it).
      await this.record(manager, target, ACTION_COMMENT, authorId, authorId, data.comment, { scope: data.scope });
      if (data.scope === 'report') await this.flagReportedSource(manager, target, unit.editable_source, ctx.caller!.id);
      await this.refresh(manager, target);
      return (await this.row(manager, commentId))!;
    });
  }

  /** POST `/api/units/{id}/comments/{comment}/resolve/` (Glossa): comment.resolve or the author; records 65 once. */
  async resolve(ctx: RequestContext, unitId: string, commentId: string): Promise<CommentRow> {
    const comment = await this.comment(ctx, unitId, commentId);
    if (!ctx.can('comment.resolve') && comment.user_id !== ctx.caller!.id) throw permissionDenied();
    return this.dataSource.transaction(async (manager) => {
      const [, changed]: [unknown[], number] = await manager.query('UPDATE comments SET resolved = true WHERE id = $1 AND NOT resolved RETURNING id', [comment.id]);
      if (changed > 0) {
        const target = await this.storingUnit(manager, comment.unit_id);
        await this.record(manager, target, ACTION_COMMENT_RESOLVE, ctx.caller!.id, comment.user_id, comment.comment);
        await this.refresh(manager, target);
      }
      return (await this.row(manager, comment.id))!;
    });
  }

  /** DELETE `/api/units/{id}/comments/{comment}/` (Glossa): comment.delete or the author; records 64. */
  async remove(ctx: RequestContext, unitId: string, commentId: string): Promise<void> {
    const comment = await this.comment(ctx, unitId, commentId);
    if (!ctx.can('comment.delete') && comment.user_id !== ctx.caller!.id) throw permissionDenied();
    await this.dataSource.transaction(async (manager) => {
      const [, deleted]: [unknown[], number] = await manager.query('DELETE FROM comments WHERE id = $1 RETURNING id', [comment.id]);
      if (deleted === 0) throw notFound();
      const target = await this.storingUnit(manager, comment.unit_id);
      await this.record(manager, target, ACTION_COMMENT_DELETE, ctx.caller!.id, comment.user_id, comment.comment);
      await this.refresh(manager, target);
    });
  }

  /**
   * What reporting a source string issue does to the string (checks-suggestions-search.md §6.2 `report`):
   * in a monolingual component whose source strings are editable the source unit is marked needs editing
   * ([4.x] state 10; [latest] 12) with 37 "Marked for edit"; otherwise (bilingual) the source string gets the
   * project's built-in "Source needs review" label, recorded as 86 "Added label …" ([latest]). Glossa stores
   * every source unit as read-only (100, src/sync/unit-drafts.ts) where Weblate keeps an editable template's
   * strings translated (20), so 20, 30 and 100 become 10; an empty or already marked string stays as it is.
   */
  private async flagReportedSource(manager: EntityManager, source: StoringUnit, editableSource: boolean, userId: number): Promise<void> {
    if (!editableSource) {
      const label = await sourceReviewLabel(manager, source.project_id);
      await editUnitLabels(manager, [{ ...source, id: String(source.id) }], { add: [label], remove: [] }, userId);
      return;
    }
    // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
    const [[marked]]: [Array<{ target: string; old_state: number }>, number] = await manager.query(
      `UPDATE units u SET state = 10, pending = true FROM units o
        WHERE u.id = $1 AND o.id = u.id AND u.state IN (20, 30, 100) RETURNING u.target, o.state AS old_state`,
      [source.id],
    );
    if (marked === undefined) return;
    await recordChanges(manager, [
      {
        action: ACTION_MARKED_EDIT,
        projectId: source.project_id,
        componentId: source.component_id,
        translationId: source.translation_id,
        languageId: source.language_id,
        unitId: String(source.id),
        userId,
        authorId: userId,
        target: marked.target,
        old: marked.target,
        details: { state: 10, old_state: marked.old_state, source: source.source, context: source.context },
      },
    ]);
  }

  /** The unit id of the path; its visibility was resolved by the request's access statement (404 otherwise). */
  private unitId(ctx: RequestContext, raw: string): string {
    if (!UNIT_ID.test(raw) || !ctx.scopeFound) throw notFound();
    return raw;
  }

  /** A comment stored on the path's unit, or 404. */
  private async comment(ctx: RequestContext, unitId: string, commentId: string): Promise<CommentRow> {
    const id = this.unitId(ctx, unitId);
    if (!COMMENT_ID.test(commentId)) throw notFound();
    const [row]: CommentRow[] = await this.dataSource.query(`${COMMENT_SELECT} WHERE cm.id = $1 AND cm.unit_id = $2`, [Number(commentId), id]);
    if (!row) throw notFound();
    return row;
  }

  private async storingUnit(manager: EntityManager, unitId: string): Promise<StoringUnit> {
    const [unit]: StoringUnit[] = await manager.query(
      `SELECT u.id, u.translation_id, t.language_id, t.component_id, c.project_id, u.source, u.context
         FROM units u JOIN translations t ON t.id = u.translation_id JOIN components c ON c.id = t.component_id
        WHERE u.id = $1 FOR UPDATE OF u`,
      [unitId],
    );
    if (!unit) throw notFound();
    return unit;
  }

  private async record(manager: EntityManager, unit: StoringUnit, action: number, userId: number, authorId: number | null, text: string, extra: Record<string, unknown> = {}): Promise<void> {
    await recordChanges(manager, [
      {
        action,
        projectId: unit.project_id,
        componentId: unit.component_id,
        translationId: unit.translation_id,
        languageId: unit.language_id,
        unitId: unit.id,
        userId,
        authorId,
        target: '',
        details: { comment: text, source: unit.source, context: unit.context, ...extra },
      },
    ]);
  }

  /** has_comment = an unresolved comment is stored on the unit (§6.4); the translation's counter follows. */
  private async refresh(manager: EntityManager, unit: StoringUnit): Promise<void> {
    await manager.query('UPDATE units u SET has_comment = EXISTS (SELECT 1 FROM comments cm WHERE cm.unit_id = u.id AND NOT cm.resolved) WHERE u.id = $1', [unit.id]);
    await refreshTranslationStatistics(manager, [unit.translation_id]);
  }

  private async row(manager: EntityManager, id: number): Promise<CommentRow | undefined> {
    const [row]: CommentRow[] = await manager.query(`${COMMENT_SELECT} WHERE cm.id = $1`, [id]);
    return row;
  }
}
