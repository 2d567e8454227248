import { FormatParseError, type PathPart } from '../format';
import type { JsonObject, JsonValue } from '../json/json-value';
import { CATEGORY_ORDER, isCategoryName, pluralCategories, type PluralCategory } from '../plural-categories';
import type { FileFormat, ParsedStore, StoreChanges, StoreParseOptions, StoreWriteContext, UnitWrite } from '../store';
import { categoryFormIndex, fitForms, isEmptyWrite, UnitCollector } from './family-units';
import { JsonPatcher, readJsonText, type JsonDocument } from './json-patcher';
import { decodeJsonText, encodeJsonText } from './json-text';
import { memberOf, toJsonValue, type JsonNode, type JsonObjectNode } from './json-tree';

// go-i18n v1 JSON (formats.md §3.12): an array of `{"id", "description"?, "translation"}`. The id is the
// context, the description the note; a `translation` object keyed by CLDR categories is a plural, read in
// CLDR order and written with the language's category list (plural-categories.ts, §2.3).

interface Item {
  index: number;
  node: JsonObjectNode;
}

export function readDocument(content: Buffer, options: StoreParseOptions = {}): JsonDocument {
  const limits = options.limits ?? {};
  // Each item holds a few leaves (id, description, plural forms); units are counted exactly below.
  const maxLeaves = limits.maxUnits === undefined ? undefined : limits.maxUnits * 16 + 16;
  const decoded = decodeJsonText(content);
  const doc = readJsonText(decoded, { maxLeaves, maxStringLength: limits.maxStringLength });
  // Weblate 4.x started new go-i18n files as `{}` (formats.md §3.12); read it as the empty array it means.
  if (doc.root.kind === 'object' && doc.root.members.length === 0) {
    const { text } = decoded;
    return readJsonText({ ...decoded, text: `${text.slice(0, doc.root.start)}[]${text.slice(doc.root.end)}` });
  }
  return doc;
}

function items(doc: JsonDocument): Item[] {
  const { root } = doc;
  if (root.kind !== 'array') throw new FormatParseError(`line ${doc.lines.line(root.start)}: a go-i18n v1 file is a JSON array of messages`);
  return root.items.map((node, index) => {
    const id = node.kind === 'object' ? memberOf(node, 'id')?.value : undefined;
    if (node.kind !== 'object' || id?.kind !== 'string') throw new FormatParseError(`line ${doc.lines.line(node.start)}: a message without a string "id"`);
    return { index, node };
  });
}

function idOf(item: Item): string {
  return (memberOf(item.node, 'id')!.value as { value: string }).value;
}

/** Plural forms of a translation object, by the language's category list when known, else CLDR order. */
export function pluralForms(translation: JsonObjectNode, language?: string): string[] {
  const forms: string[] = [];
  const present = (category: PluralCategory): boolean => memberOf(translation, category) !== undefined;
  for (const category of CATEGORY_ORDER) {
    const form = memberOf(translation, category)?.value;
    if (form) forms[categoryFormIndex(category, present, language)] = form.kind === 'string' ? form.value : '';
  }
  return Array.from(forms, (form) => form ?? '');
}

function parse(content: Buffer, options: StoreParseOptions = {}): ParsedStore {
  const doc = readDocument(content, options);
  const collector = new UnitCollector(options);
  for (const item of items(doc)) {
    const translation = memberOf(item.node, 'translation')?.value;
    const description = memberOf(item.node, 'description')?.value;
    const plural = translation?.kind === 'object';
    collector.add({
      context: idOf(item),
      target: plural ? pluralForms(translation, options.language) : [translation?.kind === 'string' ? translation.value : ''],
      plural,
      note: description?.kind === 'string' ? description.value : '',
      line: doc.lines.line(item.node.start),
    });
  }
  return { units: collector.units };
}

export function pluralValue(forms: readonly string[], categories: readonly string[]): JsonObject {
  return { type: 'object', members: new Map(categories.map((category, index) => [category, { type: 'string', value: forms[index] } as JsonValue])) };
}

/** Writes `unit` into the translation at `path` (string, or category object for a plural). */
export function writeTranslation(patcher: JsonPatcher, path: PathPart[], current: JsonNode | undefined, unit: UnitWrite, plural: boolean, context: StoreWriteContext): void {
  if (!plural) {
    const target = unit.target[0] ?? '';
    if (current?.kind !== 'string' || current.value !== target) patcher.set(path, { type: 'string', value: target });
    return;
  }
  const categories = pluralCategories(context.languageCode);
  const forms = fitForms(unit.target, categories.length);
  if (current?.kind !== 'object') return patcher.set(path, pluralValue(forms, categories));
  categories.forEach((category, index) => {
    const form = memberOf(current, category)?.value;
    if (form?.kind !== 'string' || form.value !== forms[index]) patcher.set(path.concat({ key: category }), { type: 'string', value: forms[index] });
  });
  // Categories the language does not use go (translate-toolkit writes only its own list, §2.3).
  for (const member of current.members) if (isCategoryName(member.key) && !categories.includes(member.key)) patcher.remove(path.concat({ key: member.key }));
}

function write(current: Buffer, changes: StoreChanges, context: StoreWriteContext): Buffer {
  const doc = readDocument(current);
  const existing = items(doc);
  const byId = new Map(existing.map((item) => [idOf(item), item]));
  const template = context.template ? new Map(items(readDocument(context.template)).map((item) => [idOf(item), item])) : undefined;
  const patcher = new JsonPatcher(doc);
  for (const key of changes.remove ?? []) {
    const item = byId.get(key.context);
    if (item) patcher.remove([{ index: item.index }]);
  }
  let next = existing.length;
  const apply = (unit: UnitWrite, isUpdate: boolean): void => {
    const item = byId.get(unit.context);
    const fromTemplate = template?.get(unit.context);
    const templateTranslation = fromTemplate && memberOf(fromTemplate.node, 'translation')?.value;
    const translation = item && memberOf(item.node, 'translation')?.value;
    const plural = translation?.kind === 'object' || templateTranslation?.kind === 'object' || unit.target.length > 1;
    if (item) return writeTranslation(patcher, [{ index: item.index }, { key: 'translation' }], translation, unit, plural, context);
    if (isUpdate && isEmptyWrite(unit)) return;
    // A new message is a copy of the template's (id, description) with the translation set (§2.5).
    const value: JsonObject = fromTemplate ? (toJsonValue(fromTemplate.node) as JsonObject) : { type: 'object', members: new Map([['id', { type: 'string', value: unit.context }]]) };
    const categories = pluralCategories(context.languageCode);
    value.members.set('translation', plural ? pluralValue(fitForms(unit.target, categories.length), categories) : { type: 'string', value: unit.target[0] ?? '' });
    const index = next++;
    patcher.set([{ index }], value);
    byId.set(unit.context, { index, node: { kind: 'object', start: -1, end: -1, members: [], repeatsKeys: false } });
  };
  for (const unit of changes.update) apply(unit, true);
  for (const unit of changes.add ?? []) apply(unit, false);
  const result = patcher.result();
  // A `{}` file read as `[]` and left unchanged keeps its own bytes.
  return result.equals(encodeJsonText(doc.text, doc.bom)) ? current : result;
}

function create(base: Buffer | null): Buffer | null {
  // Weblate 5.x's new-file content; 4.x wrote `{}`, which is not an array (formats.md §3.12).
  if (base === null) return Buffer.from('[]\n', 'utf8');
  const doc = readDocument(base);
  const patcher = new JsonPatcher(doc);
  for (const item of items(doc)) {
    const translation = memberOf(item.node, 'translation')?.value;
    const path: PathPart[] = [{ index: item.index }, { key: 'translation' }];
    if (translation?.kind === 'object') {
      for (const member of translation.members) {
        if (isCategoryName(member.key) && !(member.value.kind === 'string' && member.value.value === '')) patcher.set(path.concat({ key: member.key }), { type: 'string', value: '' });
      }
    } else if (translation && !(translation.kind === 'string' && translation.value === '')) {
      patcher.set(path, { type: 'string', value: '' });
    }
  }
  return patcher.result();
}

export const GO_I18N_JSON_FORMAT: FileFormat = Object.freeze({ id: 'go-i18n-json', name: 'go-i18n JSON file', kind: 'both' as const, extension: 'json', parse, write, create });
