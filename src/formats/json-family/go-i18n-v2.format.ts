import { FormatParseError, type PathPart } from '../format';
import type { JsonObject } from '../json/json-value';
import { isCategoryName, pluralCategories } from '../plural-categories';
import type { FileFormat, ParsedStore, StoreChanges, StoreParseOptions, StoreWriteContext, UnitWrite } from '../store';
import { fitForms, isEmptyWrite, UnitCollector } from './family-units';
import { pluralForms, pluralValue, writeTranslation } from './go-i18n.format';
import { JsonPatcher, readJsonText, type JsonDocument } from './json-patcher';
import { decodeJsonText } from './json-text';
import { memberOf, toJsonValue, type JsonNode, type JsonObjectNode } from './json-tree';

// go-i18n v2 JSON, Weblate 5.x's `go-i18n-json-v2` (formats.md §3.12): an object keyed by message id whose
// value is the translation string, or an object `{"description"?, "hash"?, "zero"…"other"}`. The id is the
// context and the description the note. An object with a category besides `other` is a plural, read in CLDR
// order and written with the language's category list (§2.3, as v1); one with `other` alone is the plain
// message go-i18n v2 writes for a string with a description. Written by patching (docs/formats/json-family.md).

interface Message {
  key: string;
  value: JsonNode;
  line: number;
}

function readDocument(content: Buffer, options: StoreParseOptions = {}): JsonDocument {
  const limits = options.limits ?? {};
  // Each message holds a few leaves (description, hash, plural forms); units are counted exactly below.
  const maxLeaves = limits.maxUnits === undefined ? undefined : limits.maxUnits * 16 + 16;
  return readJsonText(decodeJsonText(content), { maxLeaves, maxStringLength: limits.maxStringLength });
}

function messages(doc: JsonDocument): Message[] {
  const { root } = doc;
  if (root.kind !== 'object') throw new FormatParseError(`line ${doc.lines.line(root.start)}: a go-i18n v2 file is a JSON object of messages`);
  return root.members.map((member) => {
    const line = doc.lines.line(member.value.start);
    if (member.value.kind !== 'string' && member.value.kind !== 'object') {
      throw new FormatParseError(`line ${line}: message ${JSON.stringify(member.key)} is neither a string nor an object`);
    }
    return { key: member.key, value: member.value, line };
  });
}

/** A message object is plural when it has a CLDR category other than `other`. */
function isPlural(node: JsonNode | undefined): node is JsonObjectNode {
  return node?.kind === 'object' && node.members.some((member) => isCategoryName(member.key) && member.key !== 'other');
}

function stringMember(node: JsonObjectNode, key: string): string {
  const value = memberOf(node, key)?.value;
  return value?.kind === 'string' ? value.value : '';
}

function parse(content: Buffer, options: StoreParseOptions = {}): ParsedStore {
  const doc = readDocument(content, options);
  const collector = new UnitCollector(options);
  for (const message of messages(doc)) {
    const { value } = message;
    const object = value.kind === 'object' ? value : undefined;
    const plural = isPlural(object);
    let target = [value.kind === 'string' ? value.value : ''];
    if (object) target = plural ? pluralForms(object, options.language) : [stringMember(object, 'other')];
    collector.add({ context: message.key, target, plural, note: object ? stringMember(object, 'description') : '', line: message.line });
  }
  return { units: collector.units };
}

/** A new message: a copy of the template's (description kept) with the forms set, else a plain string. */
function newMessage(unit: UnitWrite, template: JsonNode | undefined, plural: boolean, context: StoreWriteContext): JsonObject | { type: 'string'; value: string } {
  const categories = pluralCategories(context.languageCode);
  if (template?.kind !== 'object') return plural ? pluralValue(fitForms(unit.target, categories.length), categories) : { type: 'string', value: unit.target[0] ?? '' };
  const copy = toJsonValue(template) as JsonObject;
  for (const key of [...copy.members.keys()]) if (isCategoryName(key)) copy.members.delete(key);
  if (plural) fitForms(unit.target, categories.length).forEach((form, index) => copy.members.set(categories[index], { type: 'string', value: form }));
  else copy.members.set('other', { type: 'string', value: unit.target[0] ?? '' });
  return copy;
}

function write(current: Buffer, changes: StoreChanges, context: StoreWriteContext): Buffer {
  const doc = readDocument(current);
  const byKey = new Map(messages(doc).map((message) => [message.key, message]));
  const template = context.template ? new Map(messages(readDocument(context.template)).map((message) => [message.key, message.value])) : undefined;
  const patcher = new JsonPatcher(doc);
  const removed = new Set((changes.remove ?? []).map((key) => key.context));
  for (const key of removed) if (byKey.has(key)) patcher.remove([{ key }]);
  const apply = (unit: UnitWrite, isUpdate: boolean): void => {
    if (removed.has(unit.context)) return;
    const path: PathPart[] = [{ key: unit.context }];
    const existing = byKey.get(unit.context)?.value;
    const fromTemplate = template?.get(unit.context);
    const plural = isPlural(existing) || isPlural(fromTemplate) || unit.target.length > 1;
    if (existing?.kind === 'object' && !plural) {
      // A plain message written as `{"description": …, "other": …}` keeps that shape.
      const other = memberOf(existing, 'other')?.value;
      if (other?.kind !== 'string' || other.value !== (unit.target[0] ?? '')) patcher.set(path.concat({ key: 'other' }), { type: 'string', value: unit.target[0] ?? '' });
      return;
    }
    if (existing) return writeTranslation(patcher, path, existing, unit, plural, context);
    if (isUpdate && isEmptyWrite(unit)) return;
    patcher.set(path, newMessage(unit, fromTemplate, plural, context));
    byKey.set(unit.context, { key: unit.context, value: { kind: 'string', start: -1, end: -1, value: unit.target[0] ?? '' } as JsonNode, line: 0 });
  };
  for (const unit of changes.update) apply(unit, true);
  for (const unit of changes.add ?? []) apply(unit, false);
  return patcher.result();
}

function create(base: Buffer | null): Buffer | null {
  // Weblate 5.x's new-file content for the object-shaped JSON formats.
  if (base === null) return Buffer.from('{}\n', 'utf8');
  const doc = readDocument(base);
  const patcher = new JsonPatcher(doc);
  for (const message of messages(doc)) {
    const path: PathPart[] = [{ key: message.key }];
    const { value } = message;
    if (value.kind === 'string') {
      if (value.value !== '') patcher.set(path, { type: 'string', value: '' });
      continue;
    }
    if (value.kind !== 'object') continue;
    for (const member of value.members) {
      if (isCategoryName(member.key) && !(member.value.kind === 'string' && member.value.value === '')) patcher.set(path.concat({ key: member.key }), { type: 'string', value: '' });
    }
  }
  return patcher.result();
}

export const GO_I18N_JSON_V2_FORMAT: FileFormat = Object.freeze({ id: 'go-i18n-json-v2', name: 'go-i18n v2 JSON file', kind: 'both' as const, extension: 'json', parse, write, create });
