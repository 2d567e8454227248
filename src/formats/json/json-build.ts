import { FormatWriteError, type PathPart, type SerializeEntry } from '../format';
import type { JsonArray, JsonObject, JsonValue } from './json-value';
import { contextFromPath } from './json-paths';
import { jsonNumberLiteral } from './python-number';

// Rebuilds a document from entries in order (languages-formats-hashing.md §2.2): each entry walks its
// path creating missing objects and arrays, so a new key lands at the end of its parent and arrays are
// padded with null up to the index.

type Container = JsonObject | JsonArray;

// Padding slots may later be filled by a value or a container; a real `null` leaf may not.
const PADDING: JsonValue = Object.freeze({ type: 'null' });

// Refuse to pad an array to an absurd length because of a context like `list[99999999]`.
const MAX_ARRAY_INDEX = 100_000;

/** The JSON value for a target, typed by the template leaf (§2.2: number template + "7" is written as 7). */
export function leafValue(valueType: SerializeEntry['valueType'], target: string): JsonValue {
  switch (valueType) {
    case 'number': {
      const text = jsonNumberLiteral(target);
      return text === undefined ? { type: 'string', value: target } : { type: 'number', text };
    }
    case 'boolean':
      // Accept the unit source spelling (True/False) and the JSON one.
      if (target === 'True' || target === 'true') return { type: 'boolean', value: true };
      if (target === 'False' || target === 'false') return { type: 'boolean', value: false };
      return { type: 'string', value: target };
    case 'null':
      // The source of a null leaf is "", so an unchanged value writes null again.
      return target === '' ? { type: 'null' } : { type: 'string', value: target };
    case 'string':
      return { type: 'string', value: target };
  }
}

// The container a path part steps into: keys index objects, indexes index arrays.
function containerTypeFor(part: PathPart): Container['type'] {
  return 'key' in part ? 'object' : 'array';
}

function emptyContainer(part: PathPart): Container {
  return 'key' in part ? { type: 'object', members: new Map() } : { type: 'array', items: [] };
}

function getChild(container: Container, part: PathPart): JsonValue | undefined {
  if (container.type === 'object') return 'key' in part ? container.members.get(part.key) : undefined;
  return 'index' in part ? container.items[part.index] : undefined;
}

function setChild(container: Container, part: PathPart, value: JsonValue, describe: () => string): void {
  if (container.type === 'object' && 'key' in part) {
    container.members.set(part.key, value);
    return;
  }
  if (container.type === 'array' && 'index' in part) {
    if (!Number.isSafeInteger(part.index) || part.index < 0 || part.index > MAX_ARRAY_INDEX) {
      throw new FormatWriteError(`Array index out of range in ${describe()}`);
    }
    while (container.items.length < part.index) container.items.push(PADDING);
    container.items[part.index] = value;
    return;
  }
  const found = container.type === 'object' ? 'an object' : 'an array';
  throw new FormatWriteError(`Conflicting paths: ${describe()} does not fit ${found} at the same place`);
}

function isContainer(value: JsonValue | undefined): value is Container {
  return value?.type === 'object' || value?.type === 'array';
}

/** Builds the document; an empty entry list gives `{}`. Throws FormatWriteError on conflicting paths. */
export function buildJson(entries: readonly SerializeEntry[]): JsonValue {
  if (entries.length === 0 || entries[0].path.length === 0) {
    if (entries.length > 0) throw new FormatWriteError('An entry has an empty path');
    return { type: 'object', members: new Map() };
  }
  const root = emptyContainer(entries[0].path[0]);
  for (const entry of entries) {
    const { path } = entry;
    const describe = (): string => JSON.stringify(contextFromPath(path));
    if (path.length === 0) throw new FormatWriteError('An entry has an empty path');
    let container: Container = root;
    for (let i = 0; i < path.length - 1; i++) {
      let child = getChild(container, path[i]);
      if (child === undefined || child === PADDING) {
        child = emptyContainer(path[i + 1]);
        setChild(container, path[i], child, describe);
      }
      if (!isContainer(child) || child.type !== containerTypeFor(path[i + 1])) {
        throw new FormatWriteError(`Conflicting paths: ${describe()} goes through a value of another type`);
      }
      container = child;
    }
    const last = path[path.length - 1];
    if (isContainer(getChild(container, last))) {
      throw new FormatWriteError(`Conflicting paths: ${describe()} would replace an object or array`);
    }
    setChild(container, last, leafValue(entry.valueType, entry.target), describe);
  }
  return root;
}
