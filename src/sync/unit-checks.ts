import type { DataSource, EntityManager } from 'typeorm';
import { PreparedStatement } from '../database/prepared-statement';
import { effectiveFlags } from '../checks/check-list';
import { runChecks, type CheckUnit } from '../checks/engine';
import { applyAutofixes } from '../checks/autofix';
import type { Flags } from '../checks/flags';
import { BATCH_SOURCE_CHECKS, runSourceChecks } from '../checks/source-checks';
import { PLURAL_SEPARATOR } from '../common/text/word-count';
import { CHECK_BATCH as BATCH, lockUnits, storeCheckResults } from './check-rows';
import { refreshComponentSourceChecks, refreshMultipleFailures } from './source-unit-checks';

// Checks of units (checks-suggestions-search.md §3): computed by the pure engines (src/checks: translation
// checks on translation units, source checks on source units) wherever units change, and stored by
// check-rows.ts. The batch source checks are kept by the per-unit passes and refreshed by
// source-unit-checks.ts.

/** What the engine needs about a unit, its translation, component and languages. */
export interface CheckContextRow {
  id: string;
  translation_id: number;
  id_hash: string;
  context: string;
  source: string;
  target: string;
  state: number;
  flags: string;
  extra_flags: string;
  source_extra_flags: string;
  check_flags: string;
  file_format: string;
  enforced_checks: string[];
  language_code: string;
  source_language_code: string;
  is_source: boolean;
  /** Another component of the project has the same string in this language (`inconsistent` ties them). */
  has_siblings: boolean;
  /** The unit has stored check rows (failing or dismissed). */
  has_checks: boolean;
}

/**
 * SQL: another component of the project has unit `unit`'s string (same key and source) in this language. Only
 * then can an edit change an `inconsistent` result, its own or a sibling's (same lookup as unitsWithSiblings).
 * The other arguments are SQL expressions of the unit's language, project and component.
 */
export function siblingsExistSql(unit: string, languageId: string, projectId: string, componentId: string): string {
  return `EXISTS (SELECT 1 FROM components c2
                   JOIN translations t2 ON t2.component_id = c2.id AND t2.language_id = ${languageId}
                   JOIN units s ON s.translation_id = t2.id AND s.id_hash = ${unit}.id_hash AND s.source = ${unit}.source
                  WHERE c2.project_id = ${projectId} AND c2.id <> ${componentId})`;
}

export const CHECK_CONTEXT_SELECT = `
  SELECT u.id, u.translation_id, u.id_hash, u.context, u.source, u.target, u.state, u.flags, u.extra_flags,
         COALESCE(su.extra_flags, '') AS source_extra_flags, c.check_flags, c.file_format, c.enforced_checks,
         l.code AS language_code, sl.code AS source_language_code, t.is_source,
         ${siblingsExistSql('u', 't.language_id', 'c.project_id', 'c.id')} AS has_siblings,
         EXISTS (SELECT 1 FROM checks ch WHERE ch.unit_id = u.id) AS has_checks
    FROM units u
    JOIN translations t ON t.id = u.translation_id
    JOIN components c ON c.id = t.component_id
    JOIN languages l ON l.id = t.language_id
    JOIN languages sl ON sl.id = c.source_language_id
    LEFT JOIN units su ON su.id = u.source_unit_id AND su.id <> u.id`;

/** The settings every unit of one translation shares. */
export interface TranslationCheckSettings {
  fileFormat: string;
  checkFlags: string;
  languageCode: string;
  sourceLanguageCode: string;
  /** The source translation: its units get the source checks. */
  isSource?: boolean;
}

/**
 * A unit's effective flags, merged in Weblate's order (§2.2): format defaults, component `check_flags`, the
 * file's unit flags, the source string's `extra_flags`, the unit's own `extra_flags`.
 */
export function mergedFlags(settings: Pick<TranslationCheckSettings, 'fileFormat' | 'checkFlags'>, unitFlags: string, sourceExtraFlags: string, extraFlags: string): Flags {
  return effectiveFlags(settings.fileFormat, settings.checkFlags, unitFlags, sourceExtraFlags, extraFlags);
}

export function checkUnitOf(row: CheckContextRow, otherTranslations?: readonly string[]): CheckUnit {
  return {
    source: row.source.split(PLURAL_SEPARATOR),
    target: row.target.split(PLURAL_SEPARATOR),
    state: row.state,
    flags: mergedFlags({ fileFormat: row.file_format, checkFlags: row.check_flags }, row.flags, row.source_extra_flags, row.extra_flags),
    language: row.language_code,
    sourceLanguage: row.source_language_code,
    otherTranslations,
  };
}

/**
 * The text the source checks read on a source unit: its target, which an edit of the source string through
 * the API changes (Weblate keeps a source unit's target equal to its source), else its source.
 */
export function sourceTextOf(source: string, target: string): string[] {
  return (target !== '' ? target : source).split(PLURAL_SEPARATOR);
}

/** The failing check ids of one unit: the source checks of a source unit (batch ones aside), else the translation checks. */
export function failingChecks(row: CheckContextRow, otherTranslations?: readonly string[]): string[] {
  if (row.is_source) {
    const unit = checkUnitOf(row);
    return runSourceChecks({ source: sourceTextOf(row.source, row.target), flags: unit.flags, sourceLanguage: row.source_language_code, context: row.context });
  }
  return runChecks(checkUnitOf(row, otherTranslations));
}

/**
 * The units sharing a string with these (same source and key) in the same language of the project's other
 * components: `inconsistent` compares them (§1.3; Glossa has no per-component propagation switch, so every
 * component of a project takes part, Weblate's default).
 */
async function siblingIds(manager: EntityManager, unitIds: readonly string[]): Promise<string[]> {
  const rows: Array<{ id: string }> = await manager.query(
    `SELECT DISTINCT s.id FROM units u
       JOIN translations t ON t.id = u.translation_id AND NOT t.is_source
       JOIN components c ON c.id = t.component_id
       JOIN components c2 ON c2.project_id = c.project_id AND c2.id <> c.id
       JOIN translations t2 ON t2.component_id = c2.id AND t2.language_id = t.language_id
       JOIN units s ON s.translation_id = t2.id AND s.id_hash = u.id_hash AND s.source = u.source
      WHERE u.id = ANY($1::bigint[])`,
    [unitIds],
  );
  return rows.map((row) => row.id);
}

/** Translated targets of each unit's siblings (for `inconsistent`), by unit id. */
async function siblingTargets(manager: EntityManager, unitIds: readonly string[]): Promise<Map<string, string[]>> {
  const rows: Array<{ id: string; target: string }> = await manager.query(
    `SELECT u.id, s.target FROM units u
       JOIN translations t ON t.id = u.translation_id AND NOT t.is_source
       JOIN components c ON c.id = t.component_id
       JOIN components c2 ON c2.project_id = c.project_id AND c2.id <> c.id
       JOIN translations t2 ON t2.component_id = c2.id AND t2.language_id = t.language_id
       JOIN units s ON s.translation_id = t2.id AND s.id_hash = u.id_hash AND s.source = u.source AND s.state >= 20 AND s.state <> 100
      WHERE u.id = ANY($1::bigint[])`,
    [unitIds],
  );
  const byUnit = new Map<string, string[]>();
  for (const row of rows) byUnit.set(row.id, [...(byUnit.get(row.id) ?? []), row.target]);
  return byUnit;
}

/**
 * Recomputes every check of these units (and of the same strings in the project's other components, which
 * `inconsistent` ties to them) from what the database holds now. Used after edits, uploads and flag changes.
 */
export async function recheckUnits(manager: EntityManager, unitIds: readonly string[]): Promise<void> {
  if (unitIds.length === 0) return;
  const groups = await withSiblings(manager, unitIds);
  const flipped = await recheckGroup(manager, groups.translationUnits);
  // A string's `multiple_failures` follows its translations' failing state (§3.2). Its source units and
  // the ones rechecked here are all locked (step 3) before a source translation's counters move (step 4).
  const sources = [...new Set([...groups.sourceUnits, ...flipped])].sort((a, b) => Number(a) - Number(b));
  await lockUnits(manager, sources);
  await recheckGroup(manager, groups.sourceUnits);
  await refreshMultipleFailures(manager, flipped);
}

/**
 * Units in the order every writer of check rows locks them (check-rows.ts): translation units by id, then
 * source units by id, as two groups, so that two transactions never wait for each other's units.
 */
async function inLockOrder(manager: EntityManager, unitIds: readonly string[]): Promise<{ translationUnits: string[]; sourceUnits: string[] }> {
  const rows: Array<{ id: string; is_source: boolean }> = await manager.query(
    'SELECT u.id, t.is_source FROM units u JOIN translations t ON t.id = u.translation_id WHERE u.id = ANY($1::bigint[]) ORDER BY t.is_source, u.id',
    [unitIds],
  );
  return {
    translationUnits: rows.filter((row) => !row.is_source).map((row) => String(row.id)),
    sourceUnits: rows.filter((row) => row.is_source).map((row) => String(row.id)),
  };
}

/**
 * Steps 1 and 2 of the lock order (check-rows.ts) for a write that changes these translation units and then
 * rechecks them (bulk edit): the units and the same strings in the project's other components (which the
 * recheck also stores), in id order, then every translation row of those units, in id order. The write's
 * later statements (states, history, counters, the recheck) then only take locks it holds or source-side
 * locks (steps 3 and 4), so it cannot deadlock against a concurrent unit PATCH of a sibling.
 */
export async function lockUnitsForRecheck(manager: EntityManager, unitIds: readonly string[]): Promise<void> {
  if (unitIds.length === 0) return;
  const { translationUnits } = await withSiblings(manager, unitIds);
  await lockUnits(manager, translationUnits);
  await manager.query(
    `SELECT t.id FROM translations t WHERE t.id IN (SELECT u.translation_id FROM units u WHERE u.id = ANY($1::bigint[]))
      ORDER BY t.is_source, t.id FOR NO KEY UPDATE`,
    [translationUnits],
  );
}

/** These units and the same strings in the project's other components (`inconsistent`), translation units apart from source units, each in lock order. */
async function withSiblings(manager: EntityManager, unitIds: readonly string[]): Promise<{ translationUnits: string[]; sourceUnits: string[] }> {
  return inLockOrder(manager, [...new Set([...unitIds.map(String), ...(await siblingIds(manager, unitIds))])]);
}

/**
 * Rechecks one group of units in lock order (all translation units, or all source units); resolves with the
 * source units whose translations' failing state changed. Every unit of the group is locked before the
 * first batch moves a counter (check-rows.ts), and before reading: a concurrent edit of one of these units
 * (or of a sibling) then either committed before the read or waits for this transaction, so the rows
 * stored match the texts.
 */
async function recheckGroup(manager: EntityManager, all: readonly string[]): Promise<string[]> {
  const flipped: string[] = [];
  await lockUnits(manager, all);
  for (let start = 0; start < all.length; start += BATCH) {
    const ids = all.slice(start, start + BATCH);
    const rows: CheckContextRow[] = await manager.query(`${CHECK_CONTEXT_SELECT} WHERE u.id = ANY($1::bigint[]) ORDER BY u.id`, [ids]);
    const others = await siblingTargets(manager, ids);
    const results = rows.map((row) => ({ unitId: row.id, names: failingChecks(row, others.get(row.id) ?? []) }));
    flipped.push(...(await storeCheckResults(manager, results, BATCH_SOURCE_CHECKS, { unitsLocked: true })));
  }
  return flipped;
}

/**
 * Rechecks a whole component (component `check_flags` or `enforced_checks` changed): translation units, then
 * source units, then the component-wide pass of the batch source checks. Each batch is its own transaction
 * (`inTransaction`), which releases its units and counters when it commits: holding one batch's counters
 * while locking the next batch's units deadlocked against unit PATCHes of the later batch (check-rows.ts).
 * Every batch reads the component's flags as they are when it runs, so a recheck that died half-way is run
 * again from the start and a later recheck always ends with the newest flags.
 */
export async function recheckComponent(
  inTransaction: <T>(work: (manager: EntityManager) => Promise<T>) => Promise<T>,
  componentId: number,
  batchSize: number = BATCH,
): Promise<void> {
  const rows: Array<{ id: string }> = await inTransaction((manager) =>
    // Translation units first, then source units: the lock order of check-rows.ts.
    manager.query('SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.component_id = $1 ORDER BY t.is_source, u.id', [componentId]),
  );
  const ids = rows.map((row) => String(row.id));
  for (let start = 0; start < ids.length; start += batchSize) {
    const batch = ids.slice(start, start + batchSize);
    // multiple_failures of the strings whose translations flipped: the component-wide pass below.
    await inTransaction(async (manager) => {
      const groups = await withSiblings(manager, batch);
      await recheckGroup(manager, groups.translationUnits);
      await recheckGroup(manager, groups.sourceUnits);
    });
  }
  await inTransaction((manager) => refreshComponentSourceChecks(manager, componentId));
}

/** Units of a component that share a string with another component of the project (import's deferred `inconsistent` pass). */
export async function unitsWithSiblings(manager: EntityManager, componentId: number): Promise<string[]> {
  // A project's only component shares nothing: skip the per-unit lookup.
  const [{ shared }]: Array<{ shared: boolean }> = await manager.query(
    'SELECT EXISTS (SELECT 1 FROM components c JOIN components c2 ON c2.project_id = c.project_id AND c2.id <> c.id WHERE c.id = $1) AS shared',
    [componentId],
  );
  if (!shared) return [];
  const rows: Array<{ id: string }> = await manager.query(
    `SELECT u.id FROM units u
       JOIN translations t ON t.id = u.translation_id AND NOT t.is_source
       JOIN components c ON c.id = t.component_id
      WHERE c.id = $1 AND EXISTS (
        SELECT 1 FROM components c2
          JOIN translations t2 ON t2.component_id = c2.id AND t2.language_id = t.language_id
          JOIN units s ON s.translation_id = t2.id AND s.id_hash = u.id_hash AND s.source = u.source
         WHERE c2.project_id = c.project_id AND c2.id <> c.id)`,
    [componentId],
  );
  return rows.map((row) => row.id);
}

/** A translation about to be written through the API, after automatic fixes and enforced checks. */
export interface PreparedTranslation {
  target: string[];
  state: number;
  /** Ids of the automatic fixes that changed the text (recorded in the change's details as `fixups`). */
  fixups: string[];
  /** The enforced checks that failed and lowered a translated state to needs editing. */
  enforced: string[];
}

/**
 * Weblate's translate step (§3.4, §4.3): automatic fixes first (not on source units, whose text is the
 * template's), then, when the new state is translated or better, any failing check of the component's
 * `enforced_checks` lowers it to needs editing (state 10, as Weblate 4.x does).
 */
export function prepareTranslation(row: CheckContextRow, target: readonly string[], state: number): PreparedTranslation {
  const flags = checkUnitOf(row).flags;
  let fixed = [...target];
  let fixups: string[] = [];
  if (!row.is_source) {
    const result = applyAutofixes(row.source.split(PLURAL_SEPARATOR), target, flags, row.language_code);
    fixed = result.target;
    fixups = result.applied;
  }
  let enforced: string[] = [];
  if (state >= 20 && state !== 100 && !row.is_source && row.enforced_checks.length > 0) {
    const failing = runChecks(checkUnitOf({ ...row, target: fixed.join(PLURAL_SEPARATOR), state }));
    enforced = failing.filter((id) => row.enforced_checks.includes(id));
  }
  return { target: fixed, state: enforced.length > 0 ? 10 : state, fixups, enforced };
}

/** The check context of units by id (for prepareTranslation). */
export async function loadCheckContexts(manager: EntityManager, unitIds: readonly string[]): Promise<Map<string, CheckContextRow>> {
  const rows: CheckContextRow[] = await manager.query(`${CHECK_CONTEXT_SELECT} WHERE u.id = ANY($1::bigint[])`, [unitIds]);
  return new Map(rows.map((row) => [String(row.id), row]));
}

/** Change details recording what the translate step did, merged into the change's other details. */
export function translationDetails(prepared: PreparedTranslation): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  if (prepared.fixups.length > 0) details.fixups = prepared.fixups;
  if (prepared.enforced.length > 0) details.enforced_checks = prepared.enforced;
  return details;
}

/**
 * The translate step for a batch of writes (uploads): each `{unitId, target, state}` (plural forms joined)
 * comes back fixed, possibly demoted, with the details to record. Emptied strings pass unchanged.
 */
export async function prepareTranslations(
  manager: EntityManager,
  writes: ReadonlyArray<{ unitId: string; target: string; state: number }>,
): Promise<Array<{ target: string; state: number; details: Record<string, unknown> }>> {
  const contexts = await loadCheckContexts(manager, writes.filter((write) => write.target !== '').map((write) => write.unitId));
  return writes.map((write) => {
    const row = contexts.get(String(write.unitId));
    if (write.target === '' || row === undefined) return { target: write.target, state: write.state, details: {} };
    const prepared = prepareTranslation(row, write.target.split(PLURAL_SEPARATOR), write.state);
    return { target: prepared.target.join(PLURAL_SEPARATOR), state: prepared.state, details: translationDetails(prepared) };
  });
}

/*
 * One unit's check rows, has_failing_check and its translation's failing counters in one statement (the
 * unit edit path, where round trips count: docs/performance.md "Unit PATCH"). The new flag is computed
 * from the names themselves, since the statement cannot see its own deletes and inserts: the unit fails
 * when one of its failing checks is not already stored as dismissed. $1 unit id, $2 failing check ids.
 */
const STORE_UNIT_CHECKS = new PreparedStatement<{ source_unit_id: string | null }>(`
  WITH unit AS (
    SELECT u.id, u.translation_id, u.source_unit_id, u.num_words, u.has_failing_check AS old FROM units u WHERE u.id = $1::bigint FOR NO KEY UPDATE
  ), gone AS (
    DELETE FROM checks c WHERE c.unit_id = $1::bigint AND NOT (c.name = ANY($2::text[]))
  ), added AS (
    INSERT INTO checks (unit_id, name) SELECT $1::bigint, n.name FROM unnest($2::text[]) AS n(name)
    ON CONFLICT (unit_id, name) DO NOTHING
  ), next AS (
    SELECT unit.*, EXISTS (
             SELECT 1 FROM unnest($2::text[]) AS n(name)
              WHERE NOT EXISTS (SELECT 1 FROM checks c WHERE c.unit_id = $1::bigint AND c.name = n.name AND c.dismissed)
           ) AS now
      FROM unit
  ), changed AS (
    UPDATE units u SET has_failing_check = next.now FROM next WHERE u.id = next.id AND next.old <> next.now
    RETURNING next.translation_id, next.source_unit_id, next.num_words, next.now
  )
  UPDATE translations t
     SET failing_checks = t.failing_checks + CASE WHEN changed.now THEN 1 ELSE -1 END,
         failing_checks_words = t.failing_checks_words + CASE WHEN changed.now THEN changed.num_words ELSE -changed.num_words END
    FROM changed WHERE t.id = changed.translation_id
  RETURNING changed.source_unit_id`);

/**
 * The checks of one unit after an edit, from the text and state it now has (`row` read before the edit,
 * with `target`/`state` as written). A unit whose string another component of the project also has is
 * rechecked through recheckUnits instead, since `inconsistent` ties it to that string there; so is a source
 * unit, whose batch source checks the one-statement path does not see. When the unit's failing state
 * changed, its string's `multiple_failures` is re-evaluated.
 */
export async function storeEditedUnitChecks(dataSource: DataSource, row: CheckContextRow, target: string, state: number): Promise<void> {
  if (row.has_siblings || row.is_source) {
    await dataSource.transaction((manager) => recheckUnits(manager, [String(row.id)]));
    return;
  }
  const names = failingChecks({ ...row, target, state }, []);
  // The usual edit: nothing failed before or now, so there is nothing to store (one round trip saved). A
  // concurrent edit of the same unit that stored a failure between our read and our write is not undone
  // here; the unit's next edit or recheck corrects its rows (flag and counters stay consistent meanwhile).
  if (names.length === 0 && !row.has_checks) return;
  const [flipped] = await STORE_UNIT_CHECKS.run(dataSource, [String(row.id), names]);
  if (flipped?.source_unit_id != null && String(flipped.source_unit_id) !== String(row.id)) {
    const sourceUnitId = String(flipped.source_unit_id);
    await dataSource.transaction((manager) => refreshMultipleFailures(manager, [sourceUnitId]));
  }
}

/** The check context of one unit, as a prepared statement (the unit edit path runs it on every PATCH). */
const UNIT_CHECK_CONTEXT = new PreparedStatement<CheckContextRow>(`${CHECK_CONTEXT_SELECT} WHERE u.id = $1::bigint`);

export async function loadUnitCheckContext(dataSource: DataSource, unitId: string): Promise<CheckContextRow | undefined> {
  return (await UNIT_CHECK_CONTEXT.run(dataSource, [unitId]))[0];
}
