import type { PathPart } from '../format';
import { nestedPathFromContext } from '../json/json-paths';
import type { JsonArray, JsonObject, JsonValue } from '../json/json-value';
import { writeJsonDocument } from '../json/json-writer';
import type { ExportUnit, Exporter } from '../store';

// Converted downloads `?format=json` / `?format=json-nested` (formats.md §4): built from the database units,
// monolingual components only. Key = context, value = target; a plural keeps only its first form. The file
// is Weblate's JSON store output: json.dumps with 4-space indent and a trailing newline. A context repeated
// keeps its first place and takes the last value (a Python dict).

const PADDING: JsonValue = Object.freeze({ type: 'null' });
const MAX_ARRAY_INDEX = 100_000;

function flatDocument(units: readonly ExportUnit[]): JsonValue {
  const members = new Map<string, JsonValue>();
  for (const unit of units) members.set(unit.context, { type: 'string', value: unit.target[0] ?? '' });
  return { type: 'object', members };
}

/** Puts a value at `path`; false when the path runs through a value of another type (the unit is left out). */
function place(root: JsonObject, path: readonly PathPart[], value: JsonValue): boolean {
  let current: JsonObject | JsonArray = root;
  for (let i = 0; i < path.length; i++) {
    const part = path[i];
    const last = i === path.length - 1;
    const wanted = last ? undefined : 'key' in path[i + 1] ? 'object' : 'array';
    let existing: JsonValue | undefined;
    if (current.type === 'object' && 'key' in part) existing = current.members.get(part.key);
    else if (current.type === 'array' && 'index' in part && part.index <= MAX_ARRAY_INDEX) existing = current.items[part.index];
    else return false;
    let next: JsonValue;
    if (last) {
      if (existing && (existing.type === 'object' || existing.type === 'array')) return false;
      next = value;
    } else if (existing && existing !== PADDING) {
      if (existing.type !== wanted) return false;
      next = existing;
    } else {
      next = wanted === 'object' ? { type: 'object', members: new Map() } : { type: 'array', items: [] };
    }
    if (current.type === 'object' && 'key' in part) current.members.set(part.key, next);
    else if (current.type === 'array' && 'index' in part) {
      while (current.items.length < part.index) current.items.push(PADDING);
      current.items[part.index] = next;
    }
    if (!last) current = next as JsonObject | JsonArray;
  }
  return true;
}

function nestedDocument(units: readonly ExportUnit[]): JsonValue {
  const root: JsonObject = { type: 'object', members: new Map() };
  for (const unit of units) {
    const path = nestedPathFromContext(unit.context);
    // A path starting with an index cannot go into the root object; such a unit is kept flat.
    if (path.length === 0 || !('key' in path[0]) || !place(root, path, { type: 'string', value: unit.target[0] ?? '' })) {
      if (!root.members.has(unit.context)) root.members.set(unit.context, { type: 'string', value: unit.target[0] ?? '' });
    }
  }
  return root;
}

function jsonExporter(id: string, build: (units: readonly ExportUnit[]) => JsonValue): Exporter {
  return Object.freeze({
    id,
    extension: 'json',
    contentType: 'application/json',
    accepts: (_componentFormat: string, monolingual: boolean) => monolingual,
    export: (units: readonly ExportUnit[]) => Buffer.from(writeJsonDocument(build(units)), 'utf8'),
  });
}

/** `json`: flat object, key = context. */
export const JSON_EXPORTER = jsonExporter('json', flatDocument);

/** `json-nested`: dotted contexts nested (Weblate 5.x; the 4.x docs list only `json`). */
export const JSON_NESTED_EXPORTER = jsonExporter('json-nested', nestedDocument);
