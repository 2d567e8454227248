import { FormatParseError, type PathPart } from '../format';
import type { JsonObject, JsonValue } from '../json/json-value';
import type { FileFormat, ParsedStore, StoreChanges, StoreParseOptions, StoreWriteContext, UnitWrite } from '../store';
import { isEmptyWrite, placeholdersFlag, UnitCollector } from './family-units';
import { JsonPatcher, readJsonText, type JsonDocument } from './json-patcher';
import { decodeJsonText } from './json-text';
import { logicalMembers, memberOf, toJsonValue, type JsonMember, type JsonObjectNode } from './json-tree';

// WebExtension `messages.json` (formats.md §3.11): `{"key": {"message", "description"?, "placeholders"?}}`.
// The key is the context, `message` the text, `description` the note; placeholder names give the flag
// `placeholders:$NAME$` (Weblate 4.x spelling, without 5.x's `case-insensitive`). No plurals, no comments
// (translate-toolkit 3.8.4 fails on `//` comments, and so does this reader).

function readDocument(content: Buffer, options: StoreParseOptions = {}): JsonDocument {
  const limits = options.limits ?? {};
  // Each message holds a few leaves (message, description, placeholder fields); units are counted exactly below.
  const maxLeaves = limits.maxUnits === undefined ? undefined : limits.maxUnits * 16 + 16;
  return readJsonText(decodeJsonText(content), { maxLeaves, maxStringLength: limits.maxStringLength });
}

function messages(doc: JsonDocument): JsonMember[] {
  const { root } = doc;
  if (root.kind !== 'object') throw new FormatParseError(`line ${doc.lines.line(root.start)}: a WebExtension file is a JSON object of messages`);
  return logicalMembers(root);
}

function messageObject(doc: JsonDocument, member: JsonMember): JsonObjectNode {
  if (member.value.kind !== 'object') throw new FormatParseError(`line ${doc.lines.line(member.keyStart)}: message ${JSON.stringify(member.key)} is not an object`);
  return member.value;
}

function parse(content: Buffer, options: StoreParseOptions = {}): ParsedStore {
  const doc = readDocument(content, options);
  const collector = new UnitCollector(options);
  for (const member of messages(doc)) {
    const entry = messageObject(doc, member);
    const message = memberOf(entry, 'message')?.value;
    const description = memberOf(entry, 'description')?.value;
    const placeholders = memberOf(entry, 'placeholders')?.value;
    const names = placeholders?.kind === 'object' ? [...new Set(placeholders.members.map((placeholder) => placeholder.key))] : [];
    collector.add({
      context: member.key,
      target: [message?.kind === 'string' ? message.value : ''],
      note: description?.kind === 'string' ? description.value : '',
      flags: placeholdersFlag(names, (upper) => `$${upper}$`),
      line: doc.lines.line(member.keyStart),
    });
  }
  return { units: collector.units };
}

function byKey(doc: JsonDocument): Map<string, JsonObjectNode> {
  return new Map(messages(doc).map((member) => [member.key, messageObject(doc, member)]));
}

function write(current: Buffer, changes: StoreChanges, context: StoreWriteContext): Buffer {
  const doc = readDocument(current);
  const entries = byKey(doc);
  const template = context.template ? byKey(readDocument(context.template)) : undefined;
  const patcher = new JsonPatcher(doc);
  for (const key of changes.remove ?? []) if (entries.has(key.context)) patcher.remove([{ key: key.context }]);
  const apply = (unit: UnitWrite, isUpdate: boolean): void => {
    const target = unit.target[0] ?? '';
    const entry = entries.get(unit.context);
    if (entry) {
      const message = memberOf(entry, 'message')?.value;
      if (message?.kind !== 'string' || message.value !== target) patcher.set([{ key: unit.context }, { key: 'message' }], { type: 'string', value: target });
      return;
    }
    if (isUpdate && isEmptyWrite(unit)) return;
    // A new message copies the template's description and placeholders (§3.11).
    const fromTemplate = template?.get(unit.context);
    const value: JsonObject = fromTemplate ? (toJsonValue(fromTemplate) as JsonObject) : { type: 'object', members: new Map() };
    value.members.set('message', { type: 'string', value: target });
    patcher.set([{ key: unit.context }], value);
  };
  for (const unit of changes.update) apply(unit, true);
  for (const unit of changes.add ?? []) apply(unit, false);
  return patcher.result();
}

function create(base: Buffer | null): Buffer | null {
  if (base === null) return Buffer.from('{}\n', 'utf8');
  const doc = readDocument(base);
  const patcher = new JsonPatcher(doc);
  for (const [key, entry] of byKey(doc)) {
    const message = memberOf(entry, 'message')?.value;
    const path: PathPart[] = [{ key }, { key: 'message' }];
    const empty: JsonValue = { type: 'string', value: '' };
    if (message && !(message.kind === 'string' && message.value === '')) patcher.set(path, empty);
  }
  return patcher.result();
}

export const WEBEXTENSION_FORMAT: FileFormat = Object.freeze({ id: 'webextension', name: 'WebExtension JSON file', kind: 'mono' as const, extension: 'json', parse, write, create });
