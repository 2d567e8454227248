import { hasUtf8Bom, type ParseLimits, type PathPart, type SerializeEntry, type TranslationFileFormat, type UnitValueType } from './format';

// Pure (bytes and units in, bytes out): the parse worker runs it for write-back and downloads (FileParser).
// How Weblate writes a monolingual translation file back (languages-formats-hashing.md §2.2): the file's own
// entries keep their place and get the new value; a translated string the file lacks is appended (a copy of
// the template leaf: its structured path and JSON type); the document is rebuilt from that list, so keys keep their order,
// a new key lands at the end of its parent, and a BOM the file had is kept.

/** A unit to write: its key, where the template has it, and the text to store. */
export interface UnitToWrite {
  context: string;
  /** From the template leaf (units.file_location); null for units that never had one. */
  path: PathPart[] | null;
  valueType: UnitValueType | null;
  target: string;
}

/**
 * The new file content with `units` applied and `removed` keys dropped. `current` null means the file does
 * not exist yet: it starts from the format's empty translation (`{}`). A file that cannot be parsed is an
 * error (FormatParseError): writing over it would lose what it holds.
 */
export function applyUnitsToFile(
  format: TranslationFileFormat,
  current: Buffer | null,
  units: readonly UnitToWrite[],
  removed: ReadonlySet<string> = new Set(),
  limits: ParseLimits = {},
): Buffer {
  const base = current ?? Buffer.from(format.newTranslationContent, 'utf8');
  const entries: Array<SerializeEntry & { context: string }> = format
    .parse(base, { limits })
    .map((leaf) => ({ context: leaf.context, path: leaf.path, valueType: leaf.valueType, target: leaf.source }));
  const byContext = new Map(entries.map((entry) => [entry.context, entry]));
  for (const unit of units) {
    const existing = byContext.get(unit.context);
    if (existing) {
      existing.target = unit.target;
      // The template decides the JSON type of a value written by Glossa (a number stays a number).
      if (unit.valueType) existing.valueType = unit.valueType;
      continue;
    }
    // An untranslated string the file does not have stays out of it (nothing to write).
    if (unit.target === '') continue;
    const entry = {
      context: unit.context,
      path: unit.path ?? format.pathFromContext(unit.context),
      valueType: unit.valueType ?? 'string',
      target: unit.target,
    };
    entries.push(entry);
    byContext.set(unit.context, entry);
  }
  const kept = removed.size === 0 ? entries : entries.filter((entry) => !removed.has(entry.context));
  return format.serialize(kept, { bom: current !== null && hasUtf8Bom(current) });
}

/**
 * A new translation file (weblate-api.md §10.10): from `new_base` when the component names one (its strings
 * kept, every value emptied, as translate-toolkit's untranslate does), else the format's empty file (`{}\n`
 * for JSON, §2.1).
 */
export function newTranslationFile(format: TranslationFileFormat, newBase: Buffer | null, limits: ParseLimits = {}): Buffer {
  if (newBase === null) return Buffer.from(format.newTranslationContent, 'utf8');
  const leaves = format.parse(newBase, { limits });
  return format.serialize(leaves.map((leaf) => ({ path: leaf.path, valueType: 'string', target: '' })));
}
