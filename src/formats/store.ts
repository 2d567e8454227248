// The general file-format model (issue 11, docs/formats.md): every format Weblate supports reads a file into
// `StoreUnit`s and writes changes back by patching the original bytes. Formats are pure: bytes in, bytes out,
// no I/O, no database (shared/design/architecture.md "File formats").
//
// Vocabulary (shared/reference/formats.md §2):
// * A *bilingual* file carries source and target of each entry (PO, XLIFF, TS, CSV with a source column).
// * A *monolingual* file carries one text per key (JSON, Android, properties, YAML...). Used with a template
//   (the component's `template`), the template's text is the source and the translation file's text the target.
// * A format that is "both" (XLIFF, strings, properties, CSV, TS) works either way; the sync layer decides.

import type { ParseLimits } from './format';

/** Weblate joins plural forms of one string with two U+001E characters (formats.md §2.3). */
export const PLURAL_SEPARATOR = '\x1e\x1e';

/** The plural declaration a file carries (PO `Plural-Forms`), or the one a language uses when writing. */
export interface PluralDeclaration {
  /** nplurals */
  number: number;
  /** gettext C expression, e.g. `(n != 1)` */
  formula: string;
}

/** One entry of a file as the format reads it. */
export interface StoreUnit {
  /**
   * Weblate's context, spelled exactly as Weblate spells it for this format (formats.md §3 per format):
   * PO `msgctxt`, the key of key/value formats (dotted JSON path, YAML `a->b`, PHP `$LANG['x']`), XLIFF `id`...
   * Monolingual units are identified by it alone.
   */
  context: string;
  /**
   * Source text forms the file itself carries (PO `msgid` [+ `msgid_plural`], XLIFF `<source>`); one item
   * for a non-plural entry. Empty array when the file carries no source (key/value formats): the sync
   * layer then takes the template's text (or the key, without a template).
   */
  source: string[];
  /**
   * Target text forms (PO `msgstr[n]`, the value of a key/value entry). One item for a non-plural entry,
   * one per plural form (in the order of the file's plural rule) for a plural one; `['']` when untranslated.
   */
  target: string[];
  /** The entry is plural in the file (msgid_plural, `<plurals>`, i18next suffixes, numerus...). */
  plural: boolean;
  /** Developer and translator comments, prefixes removed, joined with "\n" (formats.md per format). */
  note: string;
  /** Source references joined with ", " (PO `#:`), or "" */
  location: string;
  /** Weblate flags text read from the file (PO `#,` minus fuzzy, XML `weblate-flags`, maxwidth...), sorted, ", "-joined. */
  flags: string;
  /** Previous source (PO `#| msgid`), forms joined with PLURAL_SEPARATOR; "" when none or not fuzzy. */
  previousSource: string;
  /** The file marks the entry as needing editing (PO `#, fuzzy`, TS `unfinished`, XLIFF needs-* states). */
  fuzzy: boolean;
  /** The file marks it approved (XLIFF `approved="yes"`). */
  approved: boolean;
  /** The file marks it not translatable (XLIFF `translate="no"`, Android `translatable="false"`). */
  readOnly: boolean;
  /** 1-based position in the file's entry order (Weblate's `position`). */
  position: number;
  /** 1-based line where the entry starts, for error messages and duplicate reports. */
  line: number;
  /**
   * The context under which the template holds this entry, when it differs from `context` (a format whose
   * translation files key entries differently from the template); absent otherwise.
   */
  templateContext?: string;
}

/** What a parse found besides units. */
export interface ParsedStore {
  units: StoreUnit[];
  /** The file's own plural declaration (PO `Plural-Forms`), when it has one. */
  plural?: PluralDeclaration;
  /** The language the file declares (PO `Language`, XLIFF `target-language`), when it declares one. */
  language?: string;
}

export interface StoreParseOptions {
  /** Bounds the parser checks as it goes (MAX_UNITS_PER_FILE, MAX_STRING_LENGTH); FormatLimitError past one. */
  limits?: ParseLimits;
  /**
   * The translation's language code, for category-keyed plural formats (Android `quantity`, i18next v4
   * suffixes, stringsdict, Ruby YAML, go-i18n) that map forms by position onto the language's categories
   * (formats.md §2.3, see plural-categories.ts). Absent: the file's own declaration or English.
   */
  language?: string;
  /**
   * Called for an entry whose identity repeats an earlier one (same context for monolingual formats, same
   * context + source for bilingual ones). The duplicate is not returned by `parse`. Without a callback the
   * parse fails with a FormatParseError naming both lines.
   */
  onDuplicate?: (duplicate: StoreUnit, kept: StoreUnit) => void;
}

/** Unit identity inside one file: context for monolingual files, context + source for bilingual ones. */
export interface UnitKey {
  context: string;
  /** Source forms; ignored by monolingual formats. */
  source: string[];
}

/** Weblate's states as a file can express them (formats.md §2.2). */
export type UnitFileState = 'empty' | 'fuzzy' | 'translated' | 'approved' | 'readonly';

/** A unit's new content, for a unit the file has or for one to add. */
export interface UnitWrite extends UnitKey {
  target: string[];
  state: UnitFileState;
  /** Only for added units: carried into the new entry where the format can hold them. */
  note?: string;
  flags?: string;
  location?: string;
}

/** Header fields Weblate updates on save (PO `Last-Translator`, `PO-Revision-Date`...; formats.md §3.1). */
export interface StoreWriteContext {
  /** The translation's language code in the format's style, e.g. `pt_BR`. */
  languageCode: string;
  /** The plural the translation uses (PO writes it to `Plural-Forms`; plural entries get this many forms). */
  plural: PluralDeclaration;
  /** `Full Name <email>` of the commit author. */
  lastTranslator?: string;
  /** Commit time; PO writes it as `YYYY-MM-DD HH:MM+0000`. */
  revisionDate?: Date;
  /** `X-Generator` text, e.g. `Glossa 0.1.0` (Weblate writes `Weblate <version>`). */
  generator?: string;
  /** PO `Language-Team` of a new file: `<language name> <translation URL>` as Weblate writes it. */
  languageTeam?: string;
  /** PO `Report-Msgid-Bugs-To` of a new file (the component's `report_source_bugs`), when set. */
  reportMsgidBugsTo?: string;
  /**
   * The component's template (monolingual formats): a unit added to a translation file is a copy of the
   * template's entry (formats.md §2.5). Null without a template.
   */
  template?: Buffer | null;
}

export interface StoreChanges {
  /** Units whose target/state changed; matched by key. A key the file lacks is appended (like `add`). */
  update: readonly UnitWrite[];
  /** New units to append (Weblate appends at the end of the file, or of the parent object for JSON/YAML). */
  add?: readonly UnitWrite[];
  /** Units to remove from the file. */
  remove?: readonly UnitKey[];
}

/**
 * A file format under Weblate's `file_format` id. Writing patches the original bytes: entries that did not
 * change keep their bytes (indentation, comments, quoting, encoding, BOM, line endings), so an unchanged
 * file is byte-identical and one edit is one hunk (issue 11 item 3).
 */
export interface FileFormat {
  /** Weblate's id, e.g. `po`, `aresource`. */
  id: string;
  /** Weblate's display name. */
  name: string;
  /** `mono`: needs a template; `bi`: never uses one; `both`: either (formats.md §1). */
  kind: 'mono' | 'bi' | 'both';
  /** Usual file extension without the dot, e.g. `po`. */
  extension: string;
  /** Throws FormatParseError (message: `line N: problem`) on syntax errors, bad encoding, duplicates. */
  parse(content: Buffer, options?: StoreParseOptions): ParsedStore;
  /** `current` with `changes` applied; throws FormatWriteError when they cannot be applied. */
  write(current: Buffer, changes: StoreChanges, context: StoreWriteContext): Buffer;
  /**
   * Optional: `write` that also holds `current` to the parse limits (FormatLimitError past one) in the
   * pass that reads it. Write-back needs the file within the limits; a format without this method is
   * parsed within them first, which for a large file costs more than the write itself.
   */
  writeWithinLimits?(current: Buffer, changes: StoreChanges, context: StoreWriteContext, limits: ParseLimits): Buffer;
  /**
   * A new translation file (formats.md §2.4): from `base` (`new_base`, e.g. a POT, or the template) with
   * every target emptied and the language's header, or the format's fixed new-file content when `base` is
   * null. Returns null when the format has no new-file content and no base was given (adding a language is
   * then refused).
   */
  create(base: Buffer | null, context: StoreWriteContext): Buffer | null;
  /**
   * The context a key added through the API gets: the name the format reads the written entry back under
   * (Weblate names units by translate-toolkit's ids, so a laravel key `bye` is `return[]->'bye'`, §3.15).
   * Absent: the key itself.
   */
  contextForKey?(key: string): string;
  /**
   * The plural a translation of this format uses when its file declares none, derived from its language's
   * (formats.md §2.3: stringsdict counts the language's forms plus a leading `zero`). Absent: the language's.
   */
  translationPlural?(languageCode: string, languagePlural: PluralDeclaration): PluralDeclaration;
}

/** A unit as an exporter writes it (formats.md §4: built from the database, not from the file). */
export interface ExportUnit {
  context: string;
  source: string[];
  target: string[];
  note: string;
  location: string;
  flags: string;
  /** Weblate's state number: 0, 10, 20, 30 or 100. */
  state: number;
  /** Weblate's checksum (hex), used as the XLIFF id of a unit without context. */
  checksum: string;
}

export interface ExportContext {
  languageCode: string;
  languageName: string;
  sourceLanguageCode: string;
  plural: PluralDeclaration;
  projectName: string;
  componentName: string;
  /** The translation's web URL (PO `Language-Team`). */
  translationUrl: string;
  /** `X-Generator` text. */
  generator: string;
  /** The component's file format is monolingual (json/aresource/strings exporters need it). */
  monolingual: boolean;
}

/** A converted download (`GET .../file/?format=<id>`, formats.md §4). */
export interface Exporter {
  /** Weblate's exporter id, e.g. `po`, `mo`, `xliff`, `csv`. */
  id: string;
  extension: string;
  contentType: string;
  /** Only for monolingual components (json, aresource, strings) or only for `po` components (mo). */
  accepts(componentFormat: string, monolingual: boolean): boolean;
  export(units: readonly ExportUnit[], context: ExportContext): Buffer;
}
