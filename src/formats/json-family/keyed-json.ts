import { FormatWriteError, type PathPart, type UnitValueType } from '../format';
import { leafValue } from '../json/json-build';
import type { FileFormat, ParsedStore, StoreChanges, StoreParseOptions, StoreWriteContext, UnitWrite } from '../store';
import { fitForms, isEmptyWrite, keyPath, leafText, UnitCollector } from './family-units';
import { JsonPatcher, readJsonText, type JsonDocument } from './json-patcher';
import { decodeJsonText } from './json-text';
import { logicalMembers, toJsonValue, type JsonNode, type JsonObjectNode, type JsonScalarNode } from './json-tree';

// The formats whose units are the leaves of a JSON tree, keyed by their dotted path (formats.md §3.8):
// `json`, `json-nested`, the i18next pair (§3.9: sibling leaves grouped into plurals by key suffix) and ARB
// (§3.10: top-level `@key` metadata gives the note and flags). One engine reads them all and patches the file.

export interface PluralStyle {
  /** The plural group a leaf key belongs to, given the scalar keys of its object; undefined: a plain unit. */
  formOf(key: string, siblings: ReadonlySet<string>, language?: string): { base: string; index: number } | undefined;
  /** The keys a plural unit of `base` is written under for the translation's language, in form order. */
  slotKeys(base: string, context: StoreWriteContext): string[];
}

export interface KeyedJsonSpec {
  id: string;
  name: string;
  extension: string;
  /** formats.md §1: these are "both" (a template is optional; without one the key is the source). */
  kind: 'mono' | 'both';
  /** Indentation step for new nested lines when the file shows none. */
  defaultIndent: string;
  /** Where a unit added without a template entry goes (json: one flat key; nested formats: split on dots). */
  pathFromContext(context: string): PathPart[];
  plural?: PluralStyle;
  /** Top-level keys that are no unit (ARB `@key` metadata and `@@locale` header). */
  isMetadataKey?(key: string): boolean;
  /**
   * Note and flags of top-level entries, read from the root (ARB `@key`): called once per parse, it returns
   * the lookup for each key, so the root is indexed once instead of searched per entry.
   */
  describer?(root: JsonObjectNode): (key: string) => { note: string; flags: string } | undefined;
  /** Paths that travel with an entry: removed with it, copied from the template when it is added (ARB `@key`). */
  companions?(basePath: readonly PathPart[]): PathPart[][];
  /** Extra changes when a file is started from a base (ARB `@@locale`). */
  onCreate?(patcher: JsonPatcher, context: StoreWriteContext): void;
}

// Paths are not built per leaf while parsing (two arrays per unit over 50,000 units is GC time): a slot keeps
// its parent's shared path and its own last step, and the full path is joined only when writing.
interface FormSlot {
  parent: PathPart[];
  part: PathPart;
  node: JsonScalarNode;
}

function slotPath(slot: FormSlot): PathPart[] {
  return slot.parent.concat(slot.part);
}

export interface KeyedEntry {
  context: string;
  /** The unit's key: the leaf itself, or the base key of a plural group (under `parent`). */
  parent: PathPart[];
  base: PathPart;
  /** Form slots the file has (sparse for a plural with gaps). */
  forms: Array<FormSlot | undefined>;
  plural: boolean;
  offset: number;
}

/** Every entry of the document in file order (a plural at the place of its first form). */
export function collectEntries(root: JsonNode, spec: KeyedJsonSpec, language?: string): KeyedEntry[] {
  const entries: KeyedEntry[] = [];
  const visit = (node: JsonNode, path: PathPart[], context: string, depth: number): void => {
    if (node.kind === 'array') {
      node.items.forEach((item, index) => {
        // Contexts grow with the walk (contextFromPath's spelling) instead of being re-joined per leaf.
        const itemContext = `${context}[${index}]`;
        if (item.kind === 'object' || item.kind === 'array') visit(item, path.concat({ index }), itemContext, depth + 1);
        else entries.push({ context: itemContext, parent: path, base: { index }, forms: [{ parent: path, part: { index }, node: item }], plural: false, offset: item.start });
      });
      return;
    }
    if (node.kind !== 'object') return;
    const members = logicalMembers(node);
    const siblings = spec.plural ? new Set(members.filter((member) => member.value.kind !== 'object' && member.value.kind !== 'array').map((member) => member.key)) : undefined;
    const groups = new Map<string, KeyedEntry>();
    for (const member of members) {
      if (depth === 0 && spec.isMetadataKey?.(member.key)) continue;
      const memberContext = path.length === 0 ? member.key : `${context}.${member.key}`;
      const value = member.value;
      if (value.kind === 'object' || value.kind === 'array') {
        visit(value, keyPath(path, member.key), memberContext, depth + 1);
        continue;
      }
      const form = siblings && spec.plural?.formOf(member.key, siblings, language);
      if (!form) {
        const part = { key: member.key };
        entries.push({ context: memberContext, parent: path, base: part, forms: [{ parent: path, part, node: value }], plural: false, offset: member.keyStart });
        continue;
      }
      let group = groups.get(form.base);
      if (!group) {
        group = { context: path.length === 0 ? form.base : `${context}.${form.base}`, parent: path, base: { key: form.base }, forms: [], plural: true, offset: member.keyStart };
        groups.set(form.base, group);
        entries.push(group);
      }
      group.forms[form.index] ??= { parent: path, part: { key: member.key }, node: value };
    }
  };
  visit(root, [], '', 0);
  return entries;
}

function basePathOf(entry: KeyedEntry): PathPart[] {
  return entry.parent.concat(entry.base);
}

function entryTarget(entry: KeyedEntry): string[] {
  if (!entry.plural) return [leafText(entry.forms[0]!.node)];
  return Array.from({ length: entry.forms.length }, (_, index) => {
    const slot = entry.forms[index];
    return slot ? leafText(slot.node) : '';
  });
}

function readDocument(content: Buffer, options: StoreParseOptions, spec: KeyedJsonSpec): JsonDocument {
  const limits = options.limits ?? {};
  // For json every leaf is a unit, so the reader stops at the limit itself. Plural forms and ARB metadata
  // are leaves of one unit: the reader only guards memory then, and the collector counts units exactly.
  const oneLeafPerUnit = !spec.plural && !spec.isMetadataKey;
  const maxLeaves = limits.maxUnits === undefined || oneLeafPerUnit ? limits.maxUnits : limits.maxUnits * 16 + 16;
  return readJsonText(decodeJsonText(content), { maxLeaves, maxStringLength: limits.maxStringLength });
}

interface Model {
  doc: JsonDocument;
  entries: Map<string, KeyedEntry>;
}

function readModel(content: Buffer, spec: KeyedJsonSpec): Model {
  const doc = readDocument(content, {}, spec);
  const entries = new Map<string, KeyedEntry>();
  // Weblate finds a file entry through an index keyed by context: the last one wins (formats.md §2.1).
  for (const entry of collectEntries(doc.root, spec)) entries.set(entry.context, entry);
  return { doc, entries };
}

export function keyedJsonFormat(spec: KeyedJsonSpec): FileFormat {
  const parse = (content: Buffer, options: StoreParseOptions = {}): ParsedStore => {
    const doc = readDocument(content, options, spec);
    const collector = new UnitCollector(options);
    const describe = doc.root.kind === 'object' ? spec.describer?.(doc.root) : undefined;
    for (const entry of collectEntries(doc.root, spec, options.language)) {
      const topKey = entry.parent.length === 0 && 'key' in entry.base ? entry.base.key : undefined;
      const described = describe && topKey !== undefined ? describe(topKey) : undefined;
      collector.add({
        context: entry.context,
        target: entryTarget(entry),
        plural: entry.plural,
        line: doc.lines.line(entry.offset),
        note: described?.note,
        flags: described?.flags,
      });
    }
    return { units: collector.units };
  };

  const write = (current: Buffer, changes: StoreChanges, context: StoreWriteContext): Buffer => {
    const { doc, entries } = readModel(current, spec);
    const template = context.template ? readModel(context.template, spec) : undefined;
    const patcher = new JsonPatcher(doc, spec.defaultIndent);
    for (const key of changes.remove ?? []) {
      const entry = entries.get(key.context);
      if (!entry) continue;
      for (const slot of entry.forms) if (slot) patcher.remove(slotPath(slot));
      for (const companion of spec.companions?.(basePathOf(entry)) ?? []) patcher.remove(companion);
    }
    const apply = (unit: UnitWrite, isUpdate: boolean): void => {
      const entry = entries.get(unit.context);
      // An untranslated string the file does not have stays out of it (nothing to write).
      if (!entry && isUpdate && isEmptyWrite(unit)) return;
      const fromTemplate = template?.entries.get(unit.context);
      const plural = spec.plural !== undefined && (entry?.plural ?? fromTemplate?.plural ?? unit.target.length > 1);
      const known = entry ?? fromTemplate;
      const basePath = known ? basePathOf(known) : newPath(unit.context);
      if (plural && spec.plural) writePlural(patcher, spec.plural, entry, basePath, unit, context);
      else writeLeaf(patcher, entry, fromTemplate, basePath, unit.target[0] ?? '');
      if (!entry && fromTemplate && template) copyCompanions(patcher, template.doc, spec, basePath);
    };
    for (const unit of changes.update) apply(unit, true);
    for (const unit of changes.add ?? []) apply(unit, false);
    return patcher.result();
  };

  // A new key with an empty segment (`a..b`, ``) names no member; refused as the former json adapter did.
  const newPath = (unitContext: string): PathPart[] => {
    const path = spec.pathFromContext(unitContext);
    if (path.length === 0 || path.some((part) => 'key' in part && part.key === '')) throw new FormatWriteError('The key is not valid for this file format.');
    return path;
  };

  const create = (base: Buffer | null, context: StoreWriteContext): Buffer | null => {
    if (base === null) return Buffer.from('{}\n', 'utf8');
    const { doc, entries } = readModel(base, spec);
    const patcher = new JsonPatcher(doc, spec.defaultIndent);
    // translate-toolkit's untranslate: every target emptied, keys and layout kept (formats.md §2.4).
    for (const entry of entries.values()) {
      for (const slot of entry.forms) if (slot && !(slot.node.kind === 'string' && slot.node.value === '')) patcher.set(slotPath(slot), { type: 'string', value: '' });
    }
    spec.onCreate?.(patcher, context);
    return patcher.result();
  };

  return Object.freeze({ id: spec.id, name: spec.name, kind: spec.kind, extension: spec.extension, parse, write, create });
}

function writeLeaf(patcher: JsonPatcher, entry: KeyedEntry | undefined, fromTemplate: KeyedEntry | undefined, basePath: PathPart[], target: string): void {
  const slot = entry && !entry.plural ? entry.forms[0] : undefined;
  if (slot && leafText(slot.node) === target) return;
  // The template leaf decides the JSON type (a number stays a number, formats.md §3.8); else the file's own.
  const templateSlot = fromTemplate && !fromTemplate.plural ? fromTemplate.forms[0] : undefined;
  const valueType: UnitValueType = templateSlot?.node.kind ?? slot?.node.kind ?? 'string';
  if (entry?.plural) for (const form of entry.forms) if (form) patcher.remove(slotPath(form));
  patcher.set(slot ? slotPath(slot) : basePath, leafValue(valueType, target));
}

function writePlural(patcher: JsonPatcher, style: PluralStyle, entry: KeyedEntry | undefined, basePath: PathPart[], unit: UnitWrite, context: StoreWriteContext): void {
  const base = basePath[basePath.length - 1];
  if (!base || !('key' in base)) return patcher.set(basePath, { type: 'string', value: unit.target[0] ?? '' });
  const parent = basePath.slice(0, -1);
  const keys = style.slotKeys(base.key, context);
  const forms = fitForms(unit.target, keys.length);
  keys.forEach((key, index) => {
    const path = keyPath(parent, key);
    const node = patcher.nodeAt(path);
    if (node?.kind === 'string' && node.value === forms[index]) return;
    patcher.set(path, { type: 'string', value: forms[index] });
  });
  // Forms the language does not use go (translate-toolkit writes only its own category list, §2.3).
  const wanted = new Set(keys);
  for (const slot of entry?.forms ?? []) {
    if (slot && 'key' in slot.part && !wanted.has(slot.part.key)) patcher.remove(slotPath(slot));
  }
}

function copyCompanions(patcher: JsonPatcher, templateDoc: JsonDocument, spec: KeyedJsonSpec, basePath: PathPart[]): void {
  const templatePatcher = new JsonPatcher(templateDoc);
  for (const companion of spec.companions?.(basePath) ?? []) {
    const node = templatePatcher.nodeAt(companion);
    if (node && !patcher.nodeAt(companion)) patcher.set(companion, toJsonValue(node));
  }
}
