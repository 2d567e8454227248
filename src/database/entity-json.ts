// Reads for the hottest details and lists (docs/performance.md, "Read floor") select whole rows as JSON
// (`to_json(t)`) in one named statement instead of hydrating TypeORM entity graphs: building the query and
// hydrating its joined entities was about a fifth of the Node process's time per translation detail. The
// existing mappers take entity-shaped objects, so a row's JSON is given the entities' property names here:
// the inverse of SnakeNamingStrategy (src/database/snake-naming.strategy.ts). Only columns whose values JSON
// keeps as the entity does are read this way by the callers: text, numbers, booleans, arrays and uuids. Dates
// arrive as ISO text (no mapper reads an entity date of these rows; last_change is selected as PostgreSQL text).

const propertyNames = new Map<string, string>();

/** `failing_checks_words` → `failingChecksWords` (memoized: the set of column names is fixed). */
export function propertyNameOf(column: string): string {
  let name = propertyNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
    propertyNames.set(column, name);
  }
  return name;
}

type Converter = (json: Record<string, unknown>) => Record<string, unknown>;

/** A row's key list (to_json writes a table's columns in one order) and the copy written for exactly it. */
interface Shape {
  readonly columns: readonly string[];
  readonly convert: Converter;
}

/**
 * Shapes seen so far. The key lists are the columns of the few tables the read statements select, so the
 * list stays short; the bound only guards against a caller with unforeseen key lists, which then takes the
 * generic copy.
 */
const shapes: Shape[] = [];
const MAX_SHAPES = 32;

/**
 * The copy as one object literal written for the key list (docs/performance.md, "The data path of a read,
 * session 9"): a detail renames about a hundred keys, and adding them one by one to an empty object, each
 * through the name map, cost about 8 µs of a translation detail; the literal makes an object of one fixed
 * shape in one step. The keys are the database's column names, each quoted by JSON.stringify (a valid JS
 * string literal); a key the literal would treat specially (`__proto__`) takes the generic copy.
 */
function compile(columns: readonly string[]): Converter | null {
  if (columns.some((column) => column === '__proto__' || propertyNameOf(column) === '__proto__')) return null;
  const fields = columns.map((column) => `${JSON.stringify(propertyNameOf(column))}: json[${JSON.stringify(column)}]`);
  return new Function('json', `return { ${fields.join(', ')} };`) as Converter;
}

/** Whether the object's own keys are exactly these, in this order (no array of its keys is made). */
function hasColumns(json: Record<string, unknown>, columns: readonly string[]): boolean {
  let i = 0;
  for (const key in json) {
    if (key !== columns[i]) return false;
    i += 1;
  }
  return i === columns.length;
}

function genericCopy(json: Record<string, unknown>): Record<string, unknown> {
  const entity: Record<string, unknown> = {};
  for (const column of Object.keys(json)) entity[propertyNameOf(column)] = json[column];
  return entity;
}

/** A row's `to_json(...)` with the entity's property names; relations are added by the caller. */
export function entityFromJson<T>(json: Record<string, unknown>): T {
  for (const shape of shapes) if (hasColumns(json, shape.columns)) return shape.convert(json) as T;
  if (shapes.length >= MAX_SHAPES) return genericCopy(json) as T;
  const columns = Object.keys(json);
  // for…in also walks inherited enumerable keys; JSON.parse's objects have none, anything else is copied generically.
  const convert = hasColumns(json, columns) ? compile(columns) : null;
  if (convert === null) return genericCopy(json) as T;
  shapes.push({ columns, convert });
  return convert(json) as T;
}
