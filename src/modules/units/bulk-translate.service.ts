import { HttpException, Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { numberArrayLiteral, textArrayLiteral } from '../../database/array-literal';
import { ApiValidationError, notFound, permissionDenied } from '../../common/http/api-errors';
import { entityTag, preconditionFailed } from '../../common/http/preconditions';
import type { RequestContext } from '../../common/http/request-context';
import { PLURAL_SEPARATOR } from '../../common/text/word-count';
import { refreshTranslationStatistics } from '../../sync/translation-statistics';
import { storeCheckResults, type CheckResult } from '../../sync/check-rows';
import { refreshMultipleFailures } from '../../sync/source-unit-checks';
import { failingChecks, prepareTranslation, recheckUnits, siblingsExistSql, translationDetails, type CheckContextRow } from '../../sync/unit-checks';
import { ACTION_APPROVE, ACTION_CHANGE, ACTION_COMPLETE, ACTION_MARKED_EDIT, ACTION_NEW, ACTION_NEW_CONTRIBUTOR } from '../changes/change-actions';
import { recordChanges } from '../changes/change-recorder';
import { componentLocked } from '../components/component-locked';
import { TranslationLookup, type TranslationRef } from '../translations/translation-lookup.service';
import { parseBulkTranslateBody, type BulkTranslateItem, type ItemError } from './dto/bulk-bodies';
import { translationEditError } from './unit-translation-rules';
import { unitLinkParams, unitLinkSql, unitsByIdSql } from './unit.response';

// Bulk translate (Glossa extension, issue 14 item 5): many PATCH /api/units/<id>/ edits of one translation in
// one request. Each item obeys the single edit's rules (unit-translation-rules.ts) and If-Match, and gets its
// own result; the edits that pass are written set-based in one transaction — the units, their history
// (the same actions as single edits), their checks and the translation's statistics — in a fixed number of
// statements, whatever the number of items.

/** One item's outcome, in input order. */
export type BulkItemResult = { index: number; id: number; status: 200 } | { index: number; status: number; errors: unknown };

export interface BulkTranslateResult {
  updated: number;
  failed: number;
  results: BulkItemResult[];
}

/** The answer and its status: 200, or 400 when an atomic request had a failed item (nothing was applied). */
export interface BulkTranslateOutcome {
  status: 200 | 400;
  body: BulkTranslateResult;
}

/** An item whose unit was found and whose edit passed every rule, ready to be written. */
interface AcceptedEdit {
  index: number;
  row: CheckContextRow;
  target: string;
  state: number;
  details: Record<string, unknown>;
}

const errorBody = (error: ItemError): unknown => (error as HttpException).getResponse();

/** Weblate 4.x Unit.generate_change: needs editing → 37, approving → 36, from a non-empty state → 2, else 5. */
function editAction(oldState: number, newState: number): number {
  if (newState === 10) return ACTION_MARKED_EDIT;
  if (newState === 30) return ACTION_APPROVE;
  return oldState >= 10 ? ACTION_CHANGE : ACTION_NEW;
}

@Injectable()
export class BulkTranslateService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lookup: TranslationLookup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async translate(ctx: RequestContext, projectSlug: string, componentSlug: string, languageCode: string, body: unknown): Promise<BulkTranslateOutcome> {
    const request = parseBulkTranslateBody(body, this.config.bulkMaxItems);
    const translation = await this.lookup.translation(projectSlug, componentSlug, languageCode);
    // What holds for every item is answered for the request, as PATCH would answer each of them.
    if (!ctx.can('unit.edit')) throw permissionDenied();
    if (translation.component.locked) throw componentLocked();
    return this.dataSource.transaction(async (manager) => {
      const failures = new Map<number, ItemError>();
      for (const item of request.items) if (!item.ok) failures.set(item.index, item.error);
      const resolved = await lockNamedUnits(manager, translation, request.items);
      for (const [index, error] of resolved.errors) failures.set(index, error);
      const rows = resolved.rows;
      await this.checkPreconditions(ctx, manager, request.items, resolved.ids, failures);
      const may = { edit: true, review: ctx.can('unit.review') };
      const accepted: AcceptedEdit[] = [];
      for (const item of request.items) {
        if (!item.ok || failures.has(item.index)) continue;
        const row = rows.get(resolved.ids.get(item.index)!);
        if (row === undefined) {
          failures.set(item.index, notFound());
          continue;
        }
        const refused = translationEditError({ source: row.source, state: row.state, plural_number: translation.pluralNumber }, item.edit, may);
        if (refused !== null) {
          failures.set(item.index, refused);
          continue;
        }
        // Automatic fixes and enforced checks, as the single edit applies them (unit-checks.ts).
        const prepared = prepareTranslation(row, item.edit.target!, item.edit.state!);
        accepted.push({ index: item.index, row, target: prepared.target.join(PLURAL_SEPARATOR), state: prepared.state, details: translationDetails(prepared) });
      }
      const results = request.items.map((item): BulkItemResult => {
        const failure = failures.get(item.index);
        if (failure !== undefined) return { index: item.index, status: failure.getStatus(), errors: errorBody(failure) };
        return { index: item.index, id: Number(resolved.ids.get(item.index)), status: 200 };
      });
      const failed = failures.size;
      if (request.atomic && failed > 0) return { status: 400, body: { updated: 0, failed, results } };
      await storeEdits(manager, translation, ctx.caller!.id, accepted.filter((edit) => edit.target !== edit.row.target || edit.state !== edit.row.state));
      return { status: 200, body: { updated: request.items.length - failed, failed, results } };
    });
  }

  /**
   * If-Match per item (preconditions.ts): the item's tag is compared with the ETag of the unit's GET
   * representation as it is now, read after the units were locked, so nothing changes between the
   * comparison and the write. A stale tag is that item's 412.
   */
  private async checkPreconditions(ctx: RequestContext, manager: EntityManager, items: readonly BulkTranslateItem[], ids: ReadonlyMap<number, string>, failures: Map<number, ItemError>): Promise<void> {
    const conditional = items.filter((item) => item.ok && item.ifMatch !== null && item.ifMatch.trim() !== '' && !failures.has(item.index) && ids.has(item.index));
    if (conditional.length === 0) return;
    const rows: Array<{ id: string; unit_json: string }> = await manager.query(unitsByIdSql('= ANY($1::bigint[])', unitLinkSql(2)), [
      conditional.map((item) => ids.get(item.index)),
      ...unitLinkParams(ctx.links),
    ]);
    // The unit's GET body is its JSON text as it is (UnitsController.detail), so its tag is that text's.
    const tags = new Map(rows.map((row) => [row.id, entityTag(row.unit_json)]));
    for (const item of conditional) {
      if (!item.ok) continue;
      const current = tags.get(ids.get(item.index)!);
      const listed = item.ifMatch!.split(',').map((tag) => tag.trim());
      if (current === undefined || (!listed.includes('*') && !listed.includes(current))) failures.set(item.index, preconditionFailed());
    }
  }
}

/** What every unit of one translation shares for the checks (CheckContextRow's per-translation columns). */
type SharedCheckContext = Pick<
  CheckContextRow,
  'check_flags' | 'file_format' | 'enforced_checks' | 'language_code' | 'source_language_code' | 'is_source'
> & {
  /** Another component of the project has a translation in this language (`has_siblings` can be true). */
  others: boolean;
};

/** CheckContextRow's per-unit columns, as the lock statement reads them. */
type UnitCheckColumns = Pick<CheckContextRow, 'id' | 'id_hash' | 'context' | 'source' | 'target' | 'state' | 'flags' | 'extra_flags' | 'source_extra_flags' | 'has_siblings' | 'has_checks'>;

/**
 * The units the items name — by id or by context, only in this translation — with what the rules and checks
 * need, locked in id order (as every unit writer locks them) in one statement. Each item is then matched in
 * memory: a unit elsewhere or nowhere is the item's 404, a context naming several strings and a unit named
 * by an earlier item are the item's 400.
 *
 * CHECK_CONTEXT_SELECT's columns, split: what the translation's units share is read once, and the lock
 * statement returns only the per-unit columns (10,000 rows of seven fewer columns, the enforced_checks array
 * parsed once instead of per row: less to parse and to collect in Node).
 */
async function lockNamedUnits(
  manager: EntityManager,
  translation: TranslationRef,
  items: readonly BulkTranslateItem[],
): Promise<{ rows: Map<string, CheckContextRow>; ids: Map<number, string>; errors: Map<number, ItemError> }> {
  const named = items.filter((item) => item.ok);
  const ids = named.flatMap((item) => (item.ok && item.id !== null ? [item.id] : []));
  const contexts = named.flatMap((item) => (item.ok && item.id === null ? [item.context!] : []));
  // `others`: `has_siblings` (the `inconsistent` check's tie to the same string in another component) is
  // looked up per unit only when another component of the project has this language; otherwise one question
  // answers it for the whole request. A component added between the two statements is no different from one
  // added just after the lock statement, which the per-unit lookup would not see either.
  const [shared]: SharedCheckContext[] = await manager.query(
    `SELECT c.check_flags, c.file_format, c.enforced_checks, l.code AS language_code, sl.code AS source_language_code, t.is_source,
            EXISTS (SELECT 1 FROM components c2 JOIN translations t2 ON t2.component_id = c2.id
                     WHERE c2.project_id = c.project_id AND c2.id <> c.id AND t2.language_id = t.language_id) AS others
       FROM translations t
       JOIN components c ON c.id = t.component_id
       JOIN languages l ON l.id = t.language_id
       JOIN languages sl ON sl.id = c.source_language_id
      WHERE t.id = $1`,
    [translation.id],
  );
  // Deleted since the lookup: as if the request had come just after the delete.
  if (shared === undefined) throw notFound();
  const hasSiblings = shared.others ? siblingsExistSql('u', '$4::int', '$5::int', '$6::int') : 'false';
  // has_checks stays an EXISTS the planner may answer either way: hashing the checks table (0.2 ms for the
  // bench's 1,000 rows) or probing its (unit_id, name) index per unit, which it picks once the table is large;
  // forcing the probes (LEFT JOIN LATERAL … LIMIT 1) cost 10-40 ms more per 10,000 units at the bench's size.
  const found: UnitCheckColumns[] = await manager.query(
    `SELECT u.id, u.id_hash, u.context, u.source, u.target, u.state, u.flags, u.extra_flags,
            COALESCE(su.extra_flags, '') AS source_extra_flags, ${hasSiblings} AS has_siblings,
            EXISTS (SELECT 1 FROM checks ch WHERE ch.unit_id = u.id) AS has_checks
       FROM units u
       LEFT JOIN units su ON su.id = u.source_unit_id AND su.id <> u.id
      WHERE u.translation_id = $1 AND (u.id = ANY($2::bigint[]) OR u.context = ANY($3::text[]))
      ORDER BY u.id
        FOR UPDATE OF u`,
    [
      translation.id,
      numberArrayLiteral(ids),
      textArrayLiteral(contexts),
      ...(shared.others ? [translation.languageId, translation.component.projectId, translation.component.id] : []),
    ],
  );
  const rows = new Map<string, CheckContextRow>();
  for (const unit of found) {
    // Spelled out rather than spread: a spread copy of the driver's row came out as a slow-properties object,
    // which made every later read of the 10,000 rows (rules, checks, parameters) several times dearer.
    rows.set(String(unit.id), {
      id: unit.id,
      translation_id: translation.id,
      id_hash: unit.id_hash,
      context: unit.context,
      source: unit.source,
      target: unit.target,
      state: unit.state,
      flags: unit.flags,
      extra_flags: unit.extra_flags,
      source_extra_flags: unit.source_extra_flags,
      check_flags: shared.check_flags,
      file_format: shared.file_format,
      enforced_checks: shared.enforced_checks,
      language_code: shared.language_code,
      source_language_code: shared.source_language_code,
      is_source: shared.is_source,
      has_siblings: unit.has_siblings,
      has_checks: unit.has_checks,
    });
  }
  // Only items naming their unit by context need the units by context.
  const byContext = new Map<string, string[]>();
  if (contexts.length > 0) {
    for (const unit of found) {
      const listed = byContext.get(unit.context);
      if (listed === undefined) byContext.set(unit.context, [String(unit.id)]);
      else listed.push(String(unit.id));
    }
  }
  const resolved = new Map<number, string>();
  const errors = new Map<number, ItemError>();
  const claimedBy = new Map<string, number>();
  for (const item of named) {
    if (!item.ok) continue;
    const units = item.id !== null ? (rows.has(item.id) ? [item.id] : []) : (byContext.get(item.context!) ?? []);
    if (units.length === 0) errors.set(item.index, notFound());
    else if (units.length > 1) errors.set(item.index, new ApiValidationError({ context: ['Several strings of this translation have this context; name the string by id.'] }));
    else if (claimedBy.has(units[0])) {
      errors.set(item.index, new ApiValidationError({ non_field_errors: [`This string is already edited by item ${claimedBy.get(units[0])}.`] }));
    } else {
      resolved.set(item.index, units[0]);
      claimedBy.set(units[0], item.index);
    }
  }
  return { rows, ids: resolved, errors };
}

/*
 * The units and their history in one statement: the units get their new target and state (pending: written
 * to the files at the next commit) and each edit its change, in input order, with the single edit's details
 * (unit-translate.statement.ts). The previous target and state and the details come from the rows read
 * under FOR UPDATE at the start of the request, so the history is built from the parameters alone instead
 * of reading 10,000 units a second time (a data-modifying CTE's changes are invisible to the rest of its
 * statement). The details travel as one JSON array (JSON.stringify writes it in one pass; as a text[] each
 * element's quotes would be escaped again) zipped with the arrays by ROWS FROM.
 * $1 unit ids, $2 targets, $3 states, $4 actions, $5 previous targets, $6 details (JSON array),
 * $7 project, $8 component, $9 translation, $10 language, $11 user.
 */
const WRITE_EDITS = `
  WITH updated AS (
    UPDATE units u SET target = i.target, state = i.state, pending = true
      FROM unnest($1::bigint[], $2::text[], $3::smallint[]) AS i(id, target, state)
     WHERE u.id = i.id
  )
  INSERT INTO changes (action, project_id, component_id, translation_id, language_id, unit_id, user_id, author_id, target, old, details)
  SELECT r.action, $7::int, $8::int, $9::int, $10::int, r.id, $11::int, $11::int, r.target, r.old, r.details
    FROM ROWS FROM (unnest($1::bigint[]), unnest($2::text[]), unnest($4::smallint[]), unnest($5::text[]), jsonb_array_elements($6::jsonb))
         WITH ORDINALITY AS r(id, target, action, old, details, ord)
   ORDER BY r.ord`;

/**
 * Writes the edits that change something: units, history, checks and statistics, as a single edit does for
 * one: 45 "New contributor" on the caller's first change in the translation, then each edit's action in
 * input order, then 1 "Translation completed" when the batch completed the translation. The translation row
 * is locked before the recount, so a concurrent single edit's counter update is either fully before it or
 * waits for it.
 */
async function storeEdits(manager: EntityManager, translation: TranslationRef, userId: number, edits: readonly AcceptedEdit[]): Promise<void> {
  if (edits.length === 0) return;
  const [before]: Array<{ translated: number; total: number; contributed: boolean }> = await manager.query(
    `SELECT t.translated, t.total, EXISTS (SELECT 1 FROM changes c WHERE c.translation_id = t.id AND c.user_id = $2) AS contributed
       FROM translations t WHERE t.id = $1 FOR UPDATE`,
    [translation.id, userId],
  );
  const scope = {
    projectId: translation.component.projectId,
    componentId: translation.component.id,
    translationId: translation.id,
    languageId: translation.languageId,
    userId,
    authorId: userId,
  };
  if (!before.contributed) await recordChanges(manager, [{ ...scope, action: ACTION_NEW_CONTRIBUTOR, unitId: null, target: '' }]);
  const ordered = [...edits].sort((a, b) => a.index - b.index);
  // The parameters in one pass, as ready-made array literals (array-literal.ts).
  const count = ordered.length;
  const ids = new Array<string>(count);
  const targets = new Array<string>(count);
  const states = new Array<number>(count);
  const actions = new Array<number>(count);
  const previous = new Array<string>(count);
  const details = new Array<Record<string, unknown>>(count);
  for (let i = 0; i < count; i += 1) {
    const { row, target, state } = ordered[i];
    ids[i] = row.id;
    targets[i] = target;
    states[i] = state;
    actions[i] = editAction(row.state, state);
    previous[i] = row.target;
    // The single edit's details (unit-translate.statement.ts): state, old_state, source, context, then the
    // automatic fixes and enforced checks (jsonb orders the keys itself).
    details[i] = { state, old_state: row.state, source: row.source, context: row.context, ...ordered[i].details };
  }
  const writing = manager.query(WRITE_EDITS, [
    numberArrayLiteral(ids),
    textArrayLiteral(targets),
    numberArrayLiteral(states),
    numberArrayLiteral(actions),
    textArrayLiteral(previous),
    JSON.stringify(details),
    scope.projectId,
    scope.componentId,
    scope.translationId,
    scope.languageId,
    userId,
  ]);
  // The checks of the new texts are computed while PostgreSQL writes (the statement is sent once this
  // turn of the event loop ends); a failure of the write is still thrown by the await below.
  writing.catch(() => undefined);
  await new Promise((resolve) => setImmediate(resolve));
  const checks = bulkCheckResults(edits);
  await writing;
  // A translation that starts or stops failing moves its string's multiple_failures (a source check).
  if (checks.results.length > 0) await refreshMultipleFailures(manager, await storeCheckResults(manager, checks.results));
  if (checks.tied.length > 0) await recheckUnits(manager, checks.tied);
  await refreshTranslationStatistics(manager, [translation.id], { authorId: userId });
  const [after]: Array<{ translated: number; total: number }> = await manager.query('SELECT translated, total FROM translations WHERE id = $1', [translation.id]);
  if (after.translated === after.total && before.translated < before.total) {
    await recordChanges(manager, [{ ...scope, action: ACTION_COMPLETE, unitId: null, target: '' }]);
  }
}

/**
 * Checks of the edited units from the text and state being written (storeEditedUnitChecks for many): units
 * that never failed and still pass need no row; a string another component also has is rechecked from the
 * database afterwards (`tied`), since `inconsistent` ties it to that string there.
 */
function bulkCheckResults(edits: readonly AcceptedEdit[]): { results: CheckResult[]; tied: string[] } {
  const results: CheckResult[] = [];
  const tied: string[] = [];
  for (const edit of edits) {
    if (edit.row.has_siblings) {
      tied.push(String(edit.row.id));
      continue;
    }
    const names = failingChecks({ ...edit.row, target: edit.target, state: edit.state }, []);
    if (names.length > 0 || edit.row.has_checks) results.push({ unitId: String(edit.row.id), names });
  }
  return { results, tied };
}
