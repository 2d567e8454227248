import { FormatParseError } from './format';
import type { StoreUnit } from './store';

// PostgreSQL text cannot hold U+0000, and text does not take an unpaired UTF-16 surrogate, which escapes
// such as JSON's `\ud800` can produce. Such a file used to fail in the middle of its database transaction
// and abort the whole import; it is now a parse error of that one file, as Weblate (Python, where encoding
// the string to UTF-8 fails) also cannot store it.
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** Throws FormatParseError naming the first unit whose key or text PostgreSQL cannot store. */
export function assertStorableUnits(units: readonly StoreUnit[]): void {
  for (const unit of units) {
    for (const text of [unit.context, ...unit.source, ...unit.target, unit.note, unit.location, unit.flags, unit.previousSource]) {
      const match = UNSTORABLE.exec(text);
      if (!match) continue;
      const what = match[0] === '\u0000' ? 'a NUL character (\\u0000)' : 'an unpaired surrogate (an invalid \\ud800-\\udfff escape)';
      const where = unit.line > 0 ? `line ${unit.line}: ` : '';
      throw new FormatParseError(`${where}the string "${printable(unit.context)}" contains ${what}, which cannot be stored`);
    }
  }
}

function printable(context: string): string {
  const shown = context.replace(/[\u0000\p{Cs}]/gu, '\ufffd');
  return shown.length > 60 ? `${shown.slice(0, 60)}…` : shown;
}
