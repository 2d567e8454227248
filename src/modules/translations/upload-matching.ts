import { PLURAL_SEPARATOR, type StoreUnit } from '../../formats/store';

// How an uploaded file's entries find their units (formats.md §5, Weblate 4.x `get_unit`): monolingual
// components by key; bilingual ones by (context, source), then by the part of an XLIFF context after `///`,
// then by (empty context, source), then by source alone (the last unit with that text wins).

export interface UploadEntry {
  context: string;
  /** Plural forms joined; "" for key/value files. */
  source: string;
  target: string;
  fuzzy: boolean;
}

export interface MatchableUnit {
  context: string;
  source: string;
}

const join = (forms: readonly string[]): string => forms.join(PLURAL_SEPARATOR);

export function uploadEntries(units: readonly StoreUnit[]): UploadEntry[] {
  return units.map((unit) => ({
    context: unit.context,
    source: join(unit.source),
    // A list of empty forms is no translation.
    target: unit.target.some((form) => form !== '') ? join(unit.target) : '',
    fuzzy: unit.fuzzy,
  }));
}

/**
 * The entries that take part in a merge, as Weblate's iterate_merge picks them (formats.md §5): translated
 * entries, and fuzzy ones (with a text) only when the `fuzzy` option asks for them. Untranslated entries take no part at
 * all: they are neither applied nor counted as skipped (issue 12, "Upload counters").
 */
export function mergeableEntries(entries: readonly UploadEntry[], withFuzzy: boolean): UploadEntry[] {
  return entries.filter((entry) => entry.target !== '' && (withFuzzy || !entry.fuzzy));
}

export class UnitMatcher<U extends MatchableUnit> {
  private readonly byContext = new Map<string, U>();
  private readonly byPair = new Map<string, U>();
  private readonly bySource = new Map<string, U>();

  constructor(
    units: readonly U[],
    private readonly monolingual: boolean,
  ) {
    for (const unit of units) this.remember(unit);
  }

  /** Makes `unit` findable (a unit added while matching). */
  remember(unit: U): void {
    if (!this.byContext.has(unit.context)) this.byContext.set(unit.context, unit);
    this.byPair.set(pair(unit.context, unit.source), unit);
    this.bySource.set(unit.source, unit);
  }

  find(entry: UploadEntry): U | undefined {
    if (this.monolingual || entry.source === '') return this.byContext.get(entry.context);
    const direct = this.byPair.get(pair(entry.context, entry.source));
    if (direct) return direct;
    const cut = entry.context.indexOf('///');
    if (cut >= 0) {
      const unit = this.byPair.get(pair(entry.context.slice(cut + 3), entry.source));
      if (unit) return unit;
    }
    if (entry.context !== '') {
      const unit = this.byPair.get(pair('', entry.source));
      if (unit) return unit;
    }
    return this.bySource.get(entry.source);
  }
}

const pair = (context: string, source: string): string => `${context}\u0000${source}`;
