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

/** A row's `to_json(...)` with the entity's property names; relations are added by the caller. */
export function entityFromJson<T>(json: Record<string, unknown>): T {
  const entity: Record<string, unknown> = {};
  for (const column of Object.keys(json)) entity[propertyNameOf(column)] = json[column];
  return entity as T;
}
