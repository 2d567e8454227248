// Apple `.stringsdict` reader (formats.md §3.5): each top-level key holds a dict whose
// `NSStringLocalizedFormatKey` string is one unit (context = the key) and whose variable dicts are plural units
// (context = `key:variable`), forms keyed by CLDR category with `zero` always first (§2.3).

import { FormatParseError } from '../format';
import { CATEGORY_ORDER, pluralCategories, type PluralCategory } from '../plural-categories';
import type { StoreParseOptions, StoreUnit } from '../store';
import { childElements, textContent, type XmlElement } from './xml-tokenizer';
import { expectRoot, loadSparseXml, UnitSink, type LoadedXml } from './xml2-common';

export const FORMAT_KEY = 'NSStringLocalizedFormatKey';
export const SPEC_TYPE_KEY = 'NSStringFormatSpecTypeKey';
export const VALUE_TYPE_KEY = 'NSStringFormatValueTypeKey';
export const PLURAL_RULE_TYPE = 'NSStringPluralRuleType';

/** One `<key>` and the element after it. */
export interface DictEntry {
  key: string;
  keyElement: XmlElement;
  value: XmlElement;
}

export interface StringsdictVariable {
  name: string;
  entry: DictEntry;
  /** The variable's own entries in file order (spec type, value type, categories). */
  entries: DictEntry[];
  categories: Map<string, DictEntry>;
  unit: StoreUnit | null;
}

export interface StringsdictEntry {
  name: string;
  entry: DictEntry;
  formatKey: DictEntry | undefined;
  formatUnit: StoreUnit | null;
  variables: Map<string, StringsdictVariable>;
}

export interface StringsdictFile extends LoadedXml {
  rootDict: XmlElement;
  entries: StringsdictEntry[];
  units: StoreUnit[];
}

/** The plural categories of a stringsdict for `language`: translate-toolkit's list with `zero` in front. */
export function stringsdictCategories(language: string | undefined): PluralCategory[] {
  const categories = [...pluralCategories(language ?? 'en')];
  return categories.includes('zero') ? categories : ['zero', ...categories];
}

export function isCategoryKey(key: string): boolean {
  return (CATEGORY_ORDER as readonly string[]).includes(key);
}

/** A plist value as Python's `str()` of what plistlib returns, for the scalar types. */
export function plistText(value: XmlElement): string {
  if (value.localName === 'true') return 'True';
  if (value.localName === 'false') return 'False';
  return textContent(value);
}

/** The key/value pairs of a `<dict>`, in file order. */
export function dictEntries(dict: XmlElement): DictEntry[] {
  const out: DictEntry[] = [];
  let pendingKey: XmlElement | null = null;
  for (const child of childElements(dict)) {
    if (pendingKey) {
      if (child.localName === 'key') throw new FormatParseError(`line ${pendingKey.line}: key ${textContent(pendingKey)} has no value`);
      out.push({ key: textContent(pendingKey), keyElement: pendingKey, value: child });
      pendingKey = null;
    } else if (child.localName === 'key') {
      pendingKey = child;
    } else {
      throw new FormatParseError(`line ${child.line}: expected <key>, found <${child.name}>`);
    }
  }
  if (pendingKey) throw new FormatParseError(`line ${pendingKey.line}: key ${textContent(pendingKey)} has no value`);
  return out;
}

/** The root dict is the plist's first child element (plistlib reads only that one). */
function isFirstElement(element: XmlElement): boolean {
  for (const sibling of (element.parent as XmlElement).children) if (sibling.kind === 'element') return sibling === element;
  return false;
}

/**
 * Reads a stringsdict. Top-level entries stream through xml2-sparse.ts: `keep` names those whose subtree (and
 * StringsdictEntry record) a writer needs; a parse keeps none and returns the units.
 */
export function readStringsdict(content: Buffer, options?: StoreParseOptions, keep?: (outer: string) => boolean): StringsdictFile {
  const categories = stringsdictCategories(options?.language);
  const sink = new UnitSink<StoreUnit>(options, (unit) => `duplicate key "${unit.context}"`);
  const entries: StringsdictEntry[] = [];
  let position = 0;
  let pendingKey: { element: XmlElement; text: string } | null = null;

  const addUnit = (context: string, target: string[], plural: boolean, line: number): StoreUnit | null => {
    sink.countEntry(line);
    sink.checkLength(line, context, ...target);
    const unit: StoreUnit = {
      context,
      // Monolingual-style: without a template Weblate shows the key as the source (MonolingualSimpleUnit).
      source: [],
      target,
      plural,
      note: '',
      location: '',
      flags: '',
      previousSource: '',
      fuzzy: false,
      approved: false,
      readOnly: false,
      position: (position += 1),
      line,
    };
    return sink.push(unit, context) ? unit : null;
  };

  const readEntry = (outer: DictEntry): boolean => {
    if (outer.value.localName !== 'dict') throw new FormatParseError(`line ${outer.keyElement.line}: ${outer.key} is not a dict`);
    const kept = keep?.(outer.key) ?? false;
    const entry: StringsdictEntry = { name: outer.key, entry: outer, formatKey: undefined, formatUnit: null, variables: new Map() };
    for (const inner of dictEntries(outer.value)) {
      const line = inner.keyElement.line;
      if (inner.key === FORMAT_KEY) {
        entry.formatKey = inner;
        entry.formatUnit = addUnit(outer.key, [plistText(inner.value)], false, outer.keyElement.line);
        continue;
      }
      if (inner.value.localName !== 'dict') throw new FormatParseError(`line ${line}: unexpected key ${inner.key} in ${outer.key}`);
      const variableEntries = dictEntries(inner.value);
      const byKey = new Map<string, DictEntry>();
      // plistlib keeps the last of repeated keys.
      for (const item of variableEntries) byKey.set(item.key, item);
      const specType = byKey.get(SPEC_TYPE_KEY);
      if (specType && plistText(specType.value) !== '' && plistText(specType.value) !== PLURAL_RULE_TYPE) {
        throw new FormatParseError(`line ${line}: ${inner.key} in ${outer.key} is not of ${PLURAL_RULE_TYPE}`);
      }
      const categoryEntries = new Map<string, DictEntry>();
      for (const [key, item] of byKey) if (isCategoryKey(key)) categoryEntries.set(key, item);
      const target = categories.map((category) => {
        const item = categoryEntries.get(category);
        return item ? plistText(item.value) : '';
      });
      const unit = addUnit(`${outer.key}:${inner.key}`, target, true, line);
      entry.variables.set(inner.key, { name: inner.key, entry: inner, entries: variableEntries, categories: categoryEntries, unit });
    }
    if (kept) entries.push(entry);
    return kept;
  };

  /** Children of the root dict arrive one by one: a `<key>`, then its value. */
  const onRootDictChild = (element: XmlElement): boolean => {
    if (element.localName === 'key') {
      if (pendingKey) throw new FormatParseError(`line ${pendingKey.element.line}: key ${pendingKey.text} has no value`);
      pendingKey = { element, text: textContent(element) };
      return false;
    }
    if (!pendingKey) throw new FormatParseError(`line ${element.line}: expected <key>, found <${element.name}>`);
    const outer: DictEntry = { key: pendingKey.text, keyElement: pendingKey.element, value: element };
    pendingKey = null;
    return readEntry(outer);
  };

  const loaded = loadSparseXml(content, {
    isEntry: (element) => {
      const parent = element.parent as XmlElement;
      return parent.localName === 'dict' && parent.parent !== null && parent.parent.parent === null && isFirstElement(parent);
    },
    onEntry: onRootDictChild,
  });
  expectRoot(loaded.doc, 'plist');
  const rootDict = childElements(loaded.doc.root)[0];
  if (!rootDict || rootDict.localName !== 'dict') {
    throw new FormatParseError(`line ${loaded.doc.root.line}: the plist does not hold a <dict>`);
  }
  const unpaired = pendingKey as { element: XmlElement; text: string } | null;
  if (unpaired) throw new FormatParseError(`line ${unpaired.element.line}: key ${unpaired.text} has no value`);
  return { ...loaded, rootDict, entries, units: sink.units };
}
