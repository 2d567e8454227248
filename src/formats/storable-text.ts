import { FormatParseError, type ParsedUnit } from './format';

// PostgreSQL text cannot hold U+0000, and neither text nor jsonb (units.file_location keeps the key path)
// takes an unpaired UTF-16 surrogate, which JSON's `\ud800` escape can produce. Such a file used to fail in
// the middle of its database transaction and abort the whole import; it is now a parse error of that one
// file, as Weblate (Python, where encoding the string to UTF-8 fails) also cannot store it.
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** Throws FormatParseError naming the first unit whose key or text PostgreSQL cannot store. */
export function assertStorableUnits(units: readonly ParsedUnit[]): void {
  for (const unit of units) {
    const keys = unit.path.filter((part): part is { key: string } => 'key' in part).map((part) => part.key);
    for (const text of [unit.context, unit.source, ...keys]) {
      const match = UNSTORABLE.exec(text);
      if (!match) continue;
      const what = match[0] === '\u0000' ? 'a NUL character (\\u0000)' : 'an unpaired surrogate (an invalid \\ud800-\\udfff escape)';
      throw new FormatParseError(`the string "${printable(unit.context)}" contains ${what}, which cannot be stored`);
    }
  }
}

function printable(context: string): string {
  const shown = context.replace(/[\u0000\p{Cs}]/gu, '\ufffd');
  return shown.length > 60 ? `${shown.slice(0, 60)}…` : shown;
}
