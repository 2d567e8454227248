// Apple `.stringsdict` writer (formats.md §3.5 "Write-back"). Weblate regenerates the whole plist; Glossa
// patches it: a changed format key string is replaced in place, a plural variable gets its changed forms
// replaced, new categories inserted in CLDR order and emptied ones removed (Weblate omits empty forms), new
// entries are appended to their dict, and every other byte stays.

import type { StoreChanges, StoreWriteContext, UnitKey, UnitWrite } from '../store';
import { CATEGORY_ORDER } from '../plural-categories';
import { applySplices, encodeXml } from './xml-encoding';
import { childElements, type XmlElement } from './xml-tokenizer';
import {
  dictEntries,
  FORMAT_KEY,
  isCategoryKey,
  PLURAL_RULE_TYPE,
  plistText,
  readStringsdict,
  SPEC_TYPE_KEY,
  stringsdictCategories,
  VALUE_TYPE_KEY,
  type DictEntry,
  type StringsdictEntry,
  type StringsdictFile,
  type StringsdictVariable,
} from './stringsdict-reader';
import {
  appendChildSplice,
  detectIndentUnit,
  fitForms,
  indentBefore,
  lineIndent,
  removalRange,
  replaceContentSplice,
  textForFile,
  type Splice,
} from './xml2-common';

/** `outer` or `outer:variable`, split at the last colon as translate-toolkit's StringsDictUnit does. */
function splitContext(context: string): { outer: string; variable: string | undefined } {
  const colon = context.lastIndexOf(':');
  return colon > 0 ? { outer: context.slice(0, colon), variable: context.slice(colon + 1) } : { outer: context, variable: undefined };
}

const canonicalOrder = (key: string): number => (CATEGORY_ORDER as readonly string[]).indexOf(key);

class StringsdictPatcher {
  readonly splices: Splice[] = [];
  private readonly source: string;
  private readonly nl: '\n' | '\r\n';
  private readonly step: string;
  private readonly categories: string[];

  constructor(
    private readonly file: StringsdictFile,
    languageCode: string,
  ) {
    this.source = file.doc.source;
    this.nl = file.newline;
    this.step = detectIndentUnit(this.source, '\t');
    this.categories = stringsdictCategories(languageCode);
  }

  private string(text: string): string {
    return `<string>${textForFile(text, this.nl)}</string>`;
  }

  /** Indentation of a dict's entries: that of its first key, else the dict's line plus one step. */
  private entryIndent(dict: XmlElement): string {
    const first = childElements(dict)[0];
    return (first && indentBefore(this.source, first.start)) ?? lineIndent(this.source, dict.start) + this.step;
  }

  /** What separates a key from its value in this dict (a line break and indentation, or nothing). */
  private separator(entries: readonly DictEntry[], indent: string): string {
    const first = entries[0];
    if (first) {
      const between = this.source.slice(first.keyElement.end, first.value.start);
      if (/^\s*$/.test(between)) return between;
    }
    return this.nl + indent;
  }

  replaceText(element: XmlElement, text: string): void {
    this.splices.push(replaceContentSplice(this.source, element, textForFile(text, this.nl)));
  }

  remove(start: number, end: number): void {
    this.splices.push(removalRange(this.source, start, end));
  }

  /** Sets a variable's forms: changed ones in place, new ones inserted in CLDR order, emptied ones removed. */
  updateForms(variable: StringsdictVariable, target: readonly string[]): void {
    const forms = fitForms(target, this.categories.length);
    const wanted = new Map<string, string>();
    this.categories.forEach((category, index) => wanted.set(category, forms[index]));
    const stays = (entry: DictEntry): boolean => !wanted.has(entry.key) || wanted.get(entry.key) !== '';
    const dict = variable.entry.value;
    const indent = this.entryIndent(dict);
    const separator = this.separator(variable.entries, indent);
    for (const [category, form] of wanted) {
      const existing = variable.categories.get(category);
      if (existing) {
        if (form === '') this.remove(existing.keyElement.start, existing.value.end);
        else if (plistText(existing.value) !== form) this.replaceText(existing.value, form);
        continue;
      }
      if (form === '') continue;
      const item = `<key>${category}</key>${separator}${this.string(form)}`;
      let anchor: DictEntry | undefined;
      for (const entry of variable.entries) {
        if (isCategoryKey(entry.key) && canonicalOrder(entry.key) > canonicalOrder(category)) break;
        if (stays(entry)) anchor = entry;
      }
      if (anchor) this.splices.push({ start: anchor.value.end, end: anchor.value.end, text: `${this.nl}${indent}${item}` });
      else if (variable.entries.length > 0) {
        const first = variable.entries[0].keyElement.start;
        this.splices.push({ start: first, end: first, text: `${item}${this.nl}${indent}` });
      } else this.splices.push(appendChildSplice(this.source, dict, item, indent, this.nl));
    }
  }

  /** A new variable dict, lines after the first indented for `indent`. */
  variableBlock(name: string, forms: readonly string[], valueType: string, indent: string): string {
    const inner = indent + this.step;
    const lines = [
      `<key>${textForFile(name, this.nl)}</key>`,
      `${indent}<dict>`,
      `${inner}<key>${SPEC_TYPE_KEY}</key>`,
      `${inner}<string>${PLURAL_RULE_TYPE}</string>`,
      `${inner}<key>${VALUE_TYPE_KEY}</key>`,
      `${inner}${this.string(valueType)}`,
    ];
    fitForms(forms, this.categories.length).forEach((form, index) => {
      if (form !== '') lines.push(`${inner}<key>${this.categories[index]}</key>`, `${inner}${this.string(form)}`);
    });
    lines.push(`${indent}</dict>`);
    return lines.join(this.nl);
  }

  formatKeyBlock(text: string, indent: string): string {
    return `<key>${FORMAT_KEY}</key>${this.nl}${indent}${this.string(text)}`;
  }

  appendTo(dict: XmlElement, blocks: readonly string[], indent: string): void {
    if (blocks.length > 0) this.splices.push(appendChildSplice(this.source, dict, blocks.join(this.nl + indent), indent, this.nl));
  }

  /** A new top-level entry holding `blocks` (format key and variables built for one more level of indent). */
  newEntryBlock(name: string, blocks: readonly string[], indent: string): string {
    const inner = indent + this.step;
    return [`<key>${textForFile(name, this.nl)}</key>`, `${indent}<dict>`, ...blocks.map((block) => inner + block), `${indent}</dict>`].join(this.nl);
  }

  rootIndent(): string {
    return this.entryIndent(this.file.rootDict);
  }

  indentOf(dict: XmlElement): string {
    return this.entryIndent(dict);
  }

  get stepIndent(): string {
    return this.step;
  }

  result(): Buffer {
    return encodeXml(applySplices(this.source, this.splices), this.file.decoded);
  }
}

interface Located {
  entry: StringsdictEntry;
  variable: StringsdictVariable | undefined;
}

function locate(file: StringsdictFile): Map<string, Located> {
  const out = new Map<string, Located>();
  for (const entry of file.entries) {
    if (entry.formatUnit) out.set(entry.formatUnit.context, { entry, variable: undefined });
    for (const variable of entry.variables.values()) if (variable.unit) out.set(variable.unit.context, { entry, variable });
  }
  return out;
}

function readForWrite(content: Buffer, language: string, keep: (outer: string) => boolean): StringsdictFile {
  return readStringsdict(content, { language, onDuplicate: () => undefined }, keep);
}

/**
 * What a new entry copies from the template: NSStringFormatValueTypeKey of each variable (by unit context) and
 * each entry's NSStringLocalizedFormatKey (by entry name). Weblate adds a missing key by copying the template's
 * entry (formats.md §2.5), so a plural added to a translation that lacks its entry keeps the format key
 * without which the stringsdict means nothing.
 */
function templateParts(template: Buffer | null | undefined, language: string, keep: (outer: string) => boolean): { valueTypes: Map<string, string>; formatKeys: Map<string, string> } {
  const valueTypes = new Map<string, string>();
  const formatKeys = new Map<string, string>();
  if (!template) return { valueTypes, formatKeys };
  for (const entry of readForWrite(template, language, keep).entries) {
    if (entry.formatUnit) formatKeys.set(entry.name, entry.formatUnit.target[0] ?? '');
    for (const variable of entry.variables.values()) {
      const valueType = variable.entries.find((item) => item.key === VALUE_TYPE_KEY);
      valueTypes.set(`${entry.name}:${variable.name}`, valueType ? plistText(valueType.value) : '');
    }
  }
  return { valueTypes, formatKeys };
}

function applyRemovals(patcher: StringsdictPatcher, file: StringsdictFile, located: Map<string, Located>, remove: readonly UnitKey[]): Set<string> {
  const removed = new Set<string>();
  for (const key of remove) if (located.has(key.context)) removed.add(key.context);
  for (const entry of file.entries) {
    const contexts = [...(entry.formatUnit ? [entry.formatUnit.context] : []), ...[...entry.variables.values()].flatMap((v) => (v.unit ? [v.unit.context] : []))];
    const gone = contexts.filter((context) => removed.has(context));
    if (gone.length === 0) continue;
    const innerCount = dictEntries(entry.entry.value).length;
    if (gone.length === innerCount) {
      patcher.remove(entry.entry.keyElement.start, entry.entry.value.end);
      continue;
    }
    if (entry.formatKey && entry.formatUnit && removed.has(entry.formatUnit.context)) {
      patcher.remove(entry.formatKey.keyElement.start, entry.formatKey.value.end);
    }
    for (const variable of entry.variables.values()) {
      if (variable.unit && removed.has(variable.unit.context)) patcher.remove(variable.entry.keyElement.start, variable.entry.value.end);
    }
  }
  return removed;
}

export function writeStringsdict(current: Buffer, changes: StoreChanges, context: StoreWriteContext): Buffer {
  // Only the entries the changes name are kept in full (xml2-sparse.ts).
  const named = new Set([...changes.update, ...(changes.add ?? []), ...(changes.remove ?? [])].map((key) => splitContext(key.context).outer));
  const keep = (outer: string): boolean => named.has(outer);
  const file = readForWrite(current, context.languageCode, keep);
  const located = locate(file);
  const patcher = new StringsdictPatcher(file, context.languageCode);
  const removed = applyRemovals(patcher, file, located, changes.remove ?? []);
  const { valueTypes, formatKeys } = templateParts(context.template, context.languageCode, keep);

  const existingEntries = new Map(file.entries.map((entry) => [entry.name, entry]));
  const additions = new Map<string, Map<string, UnitWrite>>();
  const seen = new Set<string>();
  for (const write of [...changes.update, ...(changes.add ?? [])]) {
    if (removed.has(write.context) || seen.has(write.context)) continue;
    seen.add(write.context);
    const found = located.get(write.context);
    if (found?.variable?.unit) patcher.updateForms(found.variable, write.target);
    else if (found?.entry.formatKey && found.entry.formatUnit) {
      // An empty target keeps the text: Weblate writes the source then (formats.md §3.5).
      const text = write.target[0] || write.source[0] || found.entry.formatUnit.target[0];
      if (text !== found.entry.formatUnit.target[0]) patcher.replaceText(found.entry.formatKey.value, text);
    } else {
      const { outer } = splitContext(write.context);
      const group = additions.get(outer) ?? new Map<string, UnitWrite>();
      group.set(write.context, write);
      additions.set(outer, group);
    }
  }

  for (const [outer, group] of additions) {
    const existing = existingEntries.get(outer);
    const dict = existing?.entry.value;
    const indent = dict ? patcher.indentOf(dict) : patcher.rootIndent() + patcher.stepIndent;
    const blocks: string[] = [];
    const formatWrite = group.get(outer);
    const templateFormatKey = formatKeys.get(outer);
    if (formatWrite) blocks.push(patcher.formatKeyBlock(formatWrite.target[0] || formatWrite.source[0] || '', indent));
    else if (!existing && templateFormatKey) blocks.push(patcher.formatKeyBlock(templateFormatKey, indent));
    for (const [unitContext, write] of group) {
      const { variable } = splitContext(unitContext);
      if (variable !== undefined) blocks.push(patcher.variableBlock(variable, write.target, valueTypes.get(unitContext) ?? '', indent));
    }
    if (dict) patcher.appendTo(dict, blocks, indent);
    else patcher.appendTo(file.rootDict, [patcher.newEntryBlock(outer, blocks, patcher.rootIndent())], patcher.rootIndent());
  }
  return patcher.result();
}

/** A new translation from `base`: format keys kept, every plural form dropped (forms are empty until translated). */
export function createStringsdict(base: Buffer, context: StoreWriteContext): Buffer {
  const file = readForWrite(base, context.languageCode, () => true);
  const patcher = new StringsdictPatcher(file, context.languageCode);
  for (const entry of file.entries) {
    for (const variable of entry.variables.values()) {
      for (const item of variable.categories.values()) patcher.remove(item.keyElement.start, item.value.end);
    }
  }
  return patcher.result();
}
