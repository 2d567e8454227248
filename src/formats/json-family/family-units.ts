import { FormatLimitError, FormatParseError, type PathPart } from '../format';
import { pythonNumberText } from '../json/python-number';
import { CATEGORY_ORDER, pluralCategories, type PluralCategory } from '../plural-categories';
import type { StoreParseOptions, StoreUnit, UnitWrite } from '../store';
import type { JsonScalarNode } from './json-tree';

// Unit bookkeeping shared by the JSON family: limits (maxUnits counts every entry, duplicates included;
// maxStringLength bounds the context too), duplicates (onDuplicate, else a `line N:` parse error) and
// Weblate's text of a scalar leaf (formats.md §3.8).

/** Weblate's source text of a leaf: strings as-is, null -> "", numbers via Python str(), booleans True/False. */
export function leafText(node: JsonScalarNode): string {
  switch (node.kind) {
    case 'string':
      return node.value;
    case 'number':
      return pythonNumberText(node.value);
    case 'boolean':
      return node.value === 'true' ? 'True' : 'False';
    case 'null':
      return '';
  }
}

export interface UnitFields {
  context: string;
  target: string[];
  plural?: boolean;
  note?: string;
  flags?: string;
  line: number;
}

/** Collects units in file order, applying limits and the duplicate rule of store.ts. */
export class UnitCollector {
  readonly units: StoreUnit[] = [];
  private readonly byContext = new Map<string, StoreUnit>();
  private count = 0;

  constructor(private readonly options: StoreParseOptions = {}) {}

  /** The kept unit, or undefined when `fields` repeats an earlier context. */
  add(fields: UnitFields): StoreUnit | undefined {
    const limits = this.options.limits ?? {};
    this.count += 1;
    if (this.count > (limits.maxUnits ?? Infinity)) {
      throw new FormatLimitError('units', `more than ${limits.maxUnits} strings in one file (the limit was reached at line ${fields.line})`);
    }
    const maxString = limits.maxStringLength ?? Infinity;
    // Each key is bounded by the reader; deep nesting can still join short keys into a huge context.
    if (fields.context.length > maxString) {
      throw new FormatLimitError('string-length', `a key path longer than ${maxString} characters ("${fields.context.slice(0, 40)}…")`);
    }
    for (const form of fields.target) {
      if (form.length > maxString) throw new FormatLimitError('string-length', `a string longer than ${maxString} characters at line ${fields.line}`);
    }
    // Spelled out: an object spread here takes more memory per unit over a 50,000-unit file.
    const unit: StoreUnit = {
      context: fields.context,
      source: [],
      target: fields.target,
      plural: fields.plural ?? false,
      note: fields.note ?? '',
      location: '',
      flags: fields.flags ?? '',
      previousSource: '',
      fuzzy: false,
      approved: false,
      readOnly: false,
      // Duplicates still use up a position (languages-formats-hashing.md §5.2).
      position: this.count,
      line: fields.line,
    };
    const kept = this.byContext.get(unit.context);
    if (kept) {
      if (!this.options.onDuplicate) throw new FormatParseError(`line ${unit.line}: duplicate key ${JSON.stringify(unit.context)} (first defined on line ${kept.line})`);
      this.options.onDuplicate(unit, kept);
      return undefined;
    }
    this.byContext.set(unit.context, unit);
    this.units.push(unit);
    return unit;
  }
}

/** Forms padded with "" or cut to `count` (formats.md §2.3). */
export function fitForms(target: readonly string[], count: number): string[] {
  return Array.from({ length: Math.max(count, 1) }, (_, index) => target[index] ?? '');
}

/** A write's forms are all empty (an untranslated string). */
export function isEmptyWrite(unit: UnitWrite): boolean {
  return unit.target.every((form) => form === '');
}

export function keyPath(path: readonly PathPart[], key: string): PathPart[] {
  return path.concat({ key });
}

// Weblate's flag value quoting (formats.md §2.6): a value with spaces or flag syntax is double-quoted.
const NEEDS_QUOTES = /[\s,:"\\]/;

export function flagValue(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"` : value;
}

/** The `placeholders:` flag of a WebExtension/ARB unit, names upper-cased and wrapped (formats.md §3.10-3.11). */
export function placeholdersFlag(names: readonly string[], wrap: (upper: string) => string): string {
  if (names.length === 0) return '';
  return `placeholders:${names.map((name) => flagValue(wrap(name.toUpperCase()))).join(':')}`;
}

/**
 * The form index of a category-keyed plural form (i18next v4, go-i18n; formats.md §2.3): its place in the
 * language's category list when the language is known, categories outside that list after it in CLDR order;
 * without a language, its place among the categories present, in CLDR order.
 */
export function categoryFormIndex(category: PluralCategory, present: (category: PluralCategory) => boolean, language?: string): number {
  const listed = language ? pluralCategories(language) : [];
  const known = listed.indexOf(category);
  if (known !== -1) return known;
  const others = CATEGORY_ORDER.filter((other) => !listed.includes(other) && present(other));
  return listed.length + others.indexOf(category);
}
