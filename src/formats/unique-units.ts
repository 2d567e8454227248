import { FormatParseError } from './format';
import type { StoreParseOptions, StoreUnit } from './store';

/**
 * Keeps the first unit of each identity, in file order (formats.md §2.1: Weblate keeps the first and raises
 * a duplicate-string alert for the rest). A repeat goes to `onDuplicate`, or fails the parse with
 * `line N: <the format's wording>` when the caller gave none (store.ts StoreParseOptions).
 */
export class UniqueUnits {
  readonly units: StoreUnit[] = [];
  private readonly seen = new Map<string, StoreUnit>();

  constructor(
    private readonly onDuplicate: StoreParseOptions['onDuplicate'],
    /** The problem as the format words it, after `line N: `, e.g. `duplicate key "a" (first on line 2)`. */
    private readonly describe: (duplicate: StoreUnit, kept: StoreUnit) => string,
  ) {}

  /** Adds `unit` under `key` (context, or context + source for bilingual files) unless the key was seen. */
  add(key: string, unit: StoreUnit): void {
    const kept = this.seen.get(key);
    if (!kept) {
      this.seen.set(key, unit);
      this.units.push(unit);
      return;
    }
    if (!this.onDuplicate) throw new FormatParseError(`line ${unit.line}: ${this.describe(unit, kept)}`);
    this.onDuplicate(unit, kept);
  }
}
