import { parseFlagItems, type FlagParam } from '../../checks/flags';

// Adding and removing translation flags in a unit's `extra_flags`, as Weblate's bulk edit does with its
// Flags class (integration.md §6.1: `flags.merge(add_flags)`, `flags.remove(remove_flags)`, then the flags
// written back as text). An added flag replaces a flag of the same name (its parameters change); a removed
// flag goes whatever its parameters; `discard:X` items are kept apart, one per discarded name.

type FlagItem = { name: string; params: FlagParam[] };

const itemKey = (item: FlagItem): string => (item.name === 'discard' ? `discard:${item.params.map((p) => p.value).join(':')}` : item.name);

/** One parameter as the flag parser reads it back: bare when it can be, otherwise quoted with escapes. */
function formatParam(param: FlagParam): string {
  if (param.regex) return `r"${param.value.replace(/"/g, '\\"')}"`;
  if (param.value !== '' && /^[^,:"'\s\\]+$/.test(param.value)) return param.value;
  return `"${param.value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

export function formatFlagItem(item: FlagItem): string {
  return [item.name, ...item.params.map(formatParam)].join(':');
}

const sameParams = (a: readonly FlagParam[], b: readonly FlagParam[]): boolean =>
  a.length === b.length && a.every((param, index) => param.value === b[index].value && param.regex === b[index].regex);

/**
 * `extra_flags` with `add` merged in and `remove` taken out, or null when that changes nothing (the text is
 * then left exactly as it was).
 */
export function editFlags(extraFlags: string, add: string, remove: string): string | null {
  const items = new Map<string, FlagItem>();
  for (const item of parseFlagItems(extraFlags)) items.set(itemKey(item), item);
  let changed = false;
  for (const item of parseFlagItems(add)) {
    const existing = items.get(itemKey(item));
    if (existing !== undefined && sameParams(existing.params, item.params)) continue;
    items.set(itemKey(item), item);
    changed = true;
  }
  for (const item of parseFlagItems(remove)) {
    if (items.delete(itemKey(item))) changed = true;
  }
  return changed ? [...items.values()].map(formatFlagItem).join(', ') : null;
}
