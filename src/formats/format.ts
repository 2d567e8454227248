// The pure file-format layer: a format turns file bytes into ordered leaf units and back
// (shared/design/architecture.md "File formats are pure parse/serialize pairs behind a registry").

/** One step of a unit's structured location: an object key or an array index. */
export type PathPart = { key: string } | { index: number };

/** The JSON type of the template leaf; it decides how a target is written back (§2.2). */
export type UnitValueType = 'string' | 'number' | 'boolean' | 'null';

export interface ParsedUnit {
  /** Weblate's context (the unit key), e.g. `app.title` or `list[0]` (languages-formats-hashing.md §2.1). */
  context: string;
  /** The leaf as Weblate sees it: strings as-is, null -> "", numbers as Python `str()`, booleans `True`/`False`. */
  source: string;
  /** Structured path; it survives keys containing dots, which the context cannot express (§2.1). */
  path: PathPart[];
  valueType: UnitValueType;
  /** 1-based index in the file's leaf order; skipped duplicates still use up an index (§5.2). */
  position: number;
}

/**
 * Bounds on what one file may hold (README "Configuration": MAX_UNITS_PER_FILE, MAX_STRING_LENGTH). A parser
 * stops as soon as a file goes past one, so a hostile file costs at most what the limits allow.
 */
export interface ParseLimits {
  /** Leaves (units, duplicates included) one file may have. */
  maxUnits?: number;
  /** Characters (UTF-16 code units) of any one string: a value, a key, or a unit's whole context. */
  maxStringLength?: number;
}

export interface ParseOptions {
  limits?: ParseLimits;
  /**
   * Called for each leaf whose context repeats an earlier one. Weblate keeps the first unit and raises a
   * "DuplicateString" alert for the rest (§2.1); the duplicate is not returned by `parse`.
   */
  onDuplicate?: (duplicate: ParsedUnit, kept: ParsedUnit) => void;
}

/** One value to write back, in the order the file should list it (§2.2: rebuilt from the unit list). */
export interface SerializeEntry {
  path: PathPart[];
  valueType: UnitValueType;
  target: string;
}

export interface SerializeOptions {
  /** Prefix a UTF-8 byte order mark; Weblate keeps one that the file already had (§2.2). */
  bom?: boolean;
}

export interface TranslationFileFormat {
  /** Weblate's `file_format` id, e.g. `json-nested`. */
  id: string;
  /** Weblate's display name, e.g. `JSON nested structure file`. */
  name: string;
  monolingual: boolean;
  /** Content of a brand-new translation file (`new_translation`), e.g. "{}\n". */
  newTranslationContent: string;
  /** Leaf units in file order, duplicates removed (see ParseOptions). Throws FormatParseError. */
  parse(content: Buffer, options?: ParseOptions): ParsedUnit[];
  /** Where a unit *added* with this context lives in the file (the only json / json-nested difference, §2.1). */
  pathFromContext(context: string): PathPart[];
  /** Rebuilds a whole file from entries. Throws FormatWriteError when two entries' paths conflict. */
  serialize(entries: readonly SerializeEntry[], options?: SerializeOptions): Buffer;
}

/** The file cannot be read in this format (syntax error, bad encoding). */
export class FormatParseError extends Error {
  override readonly name: string = 'FormatParseError';
}

/** Which limit a file went past (see ParseLimits; `bytes`, `memory` and `time` are checked around the parser). */
export type FormatLimitKind = 'bytes' | 'units' | 'string-length' | 'memory' | 'time';

/** The file is readable but bigger than Glossa accepts; a parse error, so every caller that skips a bad file skips it. */
export class FormatLimitError extends FormatParseError {
  override readonly name: string = 'FormatLimitError';

  constructor(
    readonly kind: FormatLimitKind,
    message: string,
  ) {
    super(message);
  }
}

/** The entries cannot be laid out as one document, e.g. `a` is both a string and an object. */
export class FormatWriteError extends Error {
  override readonly name = 'FormatWriteError';
}

export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export function hasUtf8Bom(content: Buffer): boolean {
  return content.length >= 3 && content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf;
}

/** Decodes UTF-8 strictly (Python would raise on invalid bytes) and drops a leading BOM. */
export function decodeUtf8Text(content: Buffer): string {
  const body = hasUtf8Bom(content) ? content.subarray(3) : content;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    throw new FormatParseError('File is not valid UTF-8');
  }
}
