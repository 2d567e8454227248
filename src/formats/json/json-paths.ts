import type { PathPart } from '../format';

// Contexts of JSON units (languages-formats-hashing.md §2.1): the path is rendered with `.key` for a key
// and `[i]` for an index, and one leading `.` is dropped (`app.title`, `list[2].inner`, `[0]`).

export function contextFromPath(path: readonly PathPart[]): string {
  // Built in place of map/join/slice: a one-key path is its key (no copy), which matters over 100,000 units.
  let id = '';
  path.forEach((part, index) => {
    if ('key' in part) id = index === 0 ? part.key : `${id}.${part.key}`;
    else id = `${id}[${part.index}]`;
  });
  return id;
}

// A context segment: an optional key followed by any number of `[digits]` indexes.
const SEGMENT = /^(.*?)((?:\[\d+\])*)$/s;

/**
 * json-nested: a context typed by a user becomes a nested path by splitting on `.`; a segment
 * `name[3]` is key `name` + index 3 (§2.1). Keys that contain dots cannot be expressed this way, which is
 * why parsed units keep their structured path instead of re-deriving it from the context.
 */
export function nestedPathFromContext(context: string): PathPart[] {
  const path: PathPart[] = [];
  for (const segment of context.split('.')) {
    const [, key, indexes] = SEGMENT.exec(segment) ?? [segment, segment, ''];
    if (key !== '' || indexes === '') path.push({ key });
    for (const match of indexes.matchAll(/\[(\d+)\]/g)) path.push({ index: Number(match[1]) });
  }
  return path;
}

/** Plain `json`: a newly added key stays one flat key, dots included (§2.1, §2.3). */
export function flatPathFromContext(context: string): PathPart[] {
  return [{ key: context }];
}
