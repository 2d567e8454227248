import { ACTION_SOURCE_CHANGE } from '../modules/changes/change-actions';
import { STATE_APPROVED, STATE_FUZZY, STATE_READONLY, STATE_TRANSLATED, type UnitDraft } from './unit-drafts';

// Compares a translation's units in the database with what its file says now, Weblate's
// `Unit.update_from_unit` rules (formats.md §2.2) (weblate-api.md §9.6, languages §5.2), and
// produces set-based work: rows to insert, to update, to delete, and the history entries to record.
// Units are matched by id_hash, so a string keeps its id (and its history) across rescans.

/** Change actions the scan records (weblate-api.md §8.1). */
export const ACTION_RESOURCE_UPDATE = 0;
export const ACTION_MERGE = 20;
export const ACTION_REBASE = 21;
export const ACTION_FAILED_MERGE = 22;
export const ACTION_FAILED_REBASE = 23;
export const ACTION_PARSE_ERROR = 24;
export { ACTION_SOURCE_CHANGE };
export const ACTION_STRING_REPO_UPDATE = 59;

export interface StoredUnit {
  id: string;
  idHash: string;
  context: string;
  source: string;
  target: string;
  state: number;
  previousSource: string;
  position: number;
  contentHash: string;
  numWords: number;
  numChars: number;
  pending: boolean;
  note: string;
  location: string;
  flags: string;
}

/** The full content of a unit row as the scan sets it (inserts and updates alike). */
export interface UnitValues {
  idHash: string;
  contentHash: string;
  context: string;
  source: string;
  target: string;
  state: number;
  previousSource: string;
  position: number;
  numWords: number;
  numChars: number;
  note: string;
  /** Source references (the `location` column). */
  location: string;
  flags: string;
}

export interface UnitUpdate extends UnitValues {
  id: string;
}

export interface PlannedChange {
  action: number;
  unitId: string | null;
  target: string;
  old: string;
}

export interface UnitSyncPlan {
  inserts: UnitValues[];
  updates: UnitUpdate[];
  deletes: string[];
  /** In file order. */
  changes: PlannedChange[];
}

/**
 * `isSource`: the source translation, whose units are read-only copies of the template.
 *
 * History: a unit whose text changed records 59 "String updated in the repository" with the new text
 * (and the old one in `old`); a translated unit whose source changed under an unchanged target turns
 * fuzzy, keeps the old source in previous_source and records 30 "Source string changed". New strings are
 * not in `changes`: their history is written by the statement that inserts them (unit-store.ts), which alone
 * knows their ids.
 */
export function planUnitSync(stored: readonly StoredUnit[], drafts: readonly UnitDraft[], isSource: boolean): UnitSyncPlan {
  const planner = new UnitSyncPlanner(stored, isSource);
  planner.add(drafts);
  return planner.finish();
}

/**
 * planUnitSync over slices of the drafts with the event loop running in between (issue 10, item 9): a
 * translation of 100,000 strings takes a few hundred milliseconds to plan in one piece.
 */
export async function planUnitSyncInSlices(stored: readonly StoredUnit[], drafts: readonly UnitDraft[], isSource: boolean, size = 2000): Promise<UnitSyncPlan> {
  const planner = new UnitSyncPlanner(stored, isSource);
  for (let start = 0; start < drafts.length; start += size) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    planner.add(drafts.slice(start, start + size));
  }
  return planner.finish();
}

class UnitSyncPlanner {
  private readonly byHash: Map<string, StoredUnit>;
  private readonly plan: UnitSyncPlan = { inserts: [], updates: [], deletes: [], changes: [] };
  private readonly seen = new Set<string>();

  constructor(
    private readonly stored: readonly StoredUnit[],
    private readonly isSource: boolean,
  ) {
    this.byHash = new Map(stored.map((unit) => [unit.idHash, unit]));
  }

  /** The next drafts, in file order. */
  add(drafts: readonly UnitDraft[]): void {
    const { byHash, plan, seen, isSource } = this;
    for (const draft of drafts) {
      seen.add(draft.idHash);
      const existing = byHash.get(draft.idHash);
      if (!existing) {
        plan.inserts.push(valuesOf(draft, draft.target, isSource ? STATE_READONLY : draft.fileState, isSource ? '' : draft.filePreviousSource));
        continue;
      }
      const next = isSource ? sourceValues(draft) : translationValues(existing, draft);
      if (!differs(existing, next)) continue;
      plan.updates.push({ ...next, id: existing.id });
      if (next.target !== existing.target) {
        plan.changes.push({ action: ACTION_STRING_REPO_UPDATE, unitId: existing.id, target: next.target, old: existing.target });
      }
      if (!isSource && next.source !== existing.source && next.previousSource !== '') {
        plan.changes.push({ action: ACTION_SOURCE_CHANGE, unitId: existing.id, target: next.source, old: next.previousSource });
      }
    }
  }

  /** The plan, with the stored units no draft matched as deletes. */
  finish(): UnitSyncPlan {
    for (const unit of this.stored) if (!this.seen.has(unit.idHash)) this.plan.deletes.push(unit.id);
    return this.plan;
  }
}

function sourceValues(draft: UnitDraft): UnitValues {
  return valuesOf(draft, draft.source, STATE_READONLY, '');
}

function translationValues(existing: StoredUnit, draft: UnitDraft): UnitValues {
  // A unit edited in Glossa and not yet committed keeps its text; the file is stale for it (§5.2 pending).
  if (existing.pending) return valuesOf(draft, existing.target, existing.state, existing.previousSource);
  let state = draft.fileState;
  let previousSource = draft.filePreviousSource;
  if (draft.target === existing.target && state !== STATE_READONLY) {
    if (draft.source !== existing.source && state >= STATE_TRANSLATED) {
      if (existing.state === STATE_FUZZY && existing.previousSource === draft.source) {
        // The source went back to what the translation was made for.
        state = STATE_TRANSLATED;
      } else {
        previousSource = existing.previousSource || existing.source;
        state = STATE_FUZZY;
      }
    } else if (state === STATE_TRANSLATED && (existing.state === STATE_APPROVED || (existing.state === STATE_FUZZY && !draft.fileHasFuzzy))) {
      // A format without that marker (JSON has neither fuzzy nor approved, PO has no approved): keep what
      // Glossa knows while the file did not change the text (formats.md §2.2 step 2).
      state = existing.state;
      previousSource = existing.previousSource;
    }
  }
  return valuesOf(draft, draft.target, state, previousSource);
}

function valuesOf(draft: UnitDraft, target: string, state: number, previousSource: string): UnitValues {
  return {
    idHash: draft.idHash,
    contentHash: draft.contentHash,
    context: draft.context,
    source: draft.source,
    target,
    state,
    previousSource,
    position: draft.position,
    numWords: draft.numWords,
    numChars: draft.numChars,
    note: draft.note,
    location: draft.location,
    flags: draft.flags,
  };
}

function differs(existing: StoredUnit, next: UnitValues): boolean {
  return (
    existing.context !== next.context ||
    existing.source !== next.source ||
    existing.target !== next.target ||
    existing.state !== next.state ||
    existing.previousSource !== next.previousSource ||
    existing.position !== next.position ||
    existing.contentHash !== next.contentHash ||
    existing.numWords !== next.numWords ||
    existing.numChars !== next.numChars ||
    existing.note !== next.note ||
    existing.location !== next.location ||
    existing.flags !== next.flags
  );
}
