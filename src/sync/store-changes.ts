import type { EntityManager } from 'typeorm';
import { GENERATOR } from '../common/app-version';
import { PLURAL_SEPARATOR, type PluralDeclaration, type StoreWriteContext, type UnitFileState, type UnitWrite } from '../formats/store';
import type { GitIdentity } from '../vcs/git-identity';

// Database units turned into what a FileFormat writes (store.ts StoreChanges, docs/formats.md "Write by
// patching"): plural forms split, Weblate's state numbers as the file states of formats.md §2.2, and the
// header fields a save updates (StoreWriteContext).

export const splitForms = (text: string): string[] => text.split(PLURAL_SEPARATOR);

export function fileStateOf(state: number): UnitFileState {
  switch (state) {
    case 10:
      return 'fuzzy';
    case 20:
      return 'translated';
    case 30:
      return 'approved';
    case 100:
      return 'readonly';
    default:
      return 'empty';
  }
}

export interface UnitRow {
  context: string;
  source: string;
  target: string;
  state: number;
  note?: string;
  flags?: string;
  location?: string;
}

/**
 * The target forms of a plural unit as Weblate hands them to the file (get_target_plurals, formats.md §2.3):
 * an untranslated or short target is padded with "" to the translation's plural count, so an empty plural is
 * written with every form (`msgstr[0..n-1] ""`, one `<numerusform>` per form) and not as a single one. A target
 * with more forms than the count is left to the format, which fits the forms to its own plural (stringsdict
 * and the category-keyed formats count forms differently from the language).
 */
export function pluralTargetForms(source: readonly string[], target: readonly string[], pluralNumber: number | undefined): string[] {
  if (source.length < 2 || pluralNumber === undefined || target.length >= pluralNumber) return [...target];
  return [...target, ...Array.from({ length: pluralNumber - target.length }, () => '')];
}

/**
 * One unit as the file gets it. The source translation of a monolingual component writes its template: the
 * unit's text is the source (Weblate's edit_template). `pluralNumber` is the translation's plural count.
 */
export function unitWrite(row: UnitRow, isSource: boolean, pluralNumber?: number): UnitWrite {
  const target = isSource ? row.source : row.target;
  const source = splitForms(row.source);
  return {
    context: row.context,
    source,
    target: isSource ? splitForms(target) : pluralTargetForms(source, splitForms(target), pluralNumber),
    state: isSource ? 'translated' : fileStateOf(target === '' ? 0 : row.state),
    note: row.note,
    flags: row.flags,
    location: row.location,
  };
}

export interface TranslationWriteInfo {
  languageCode: string;
  languageName: string;
  plural: PluralDeclaration;
  translationUrl: string;
}

/** The translation's language code (as in its file name), plural and name, for writing its file. */
export async function loadWriteInfo(manager: EntityManager, translationId: number): Promise<Omit<TranslationWriteInfo, 'translationUrl'>> {
  const [row]: Array<{ code: string; name: string; number: number; formula: string }> = await manager.query(
    `SELECT t.language_code AS code, l.name, COALESCE(t.plural_number, l.plural_number) AS number,
            COALESCE(t.plural_formula, l.plural_formula) AS formula
       FROM translations t JOIN languages l ON l.id = t.language_id WHERE t.id = $1`,
    [translationId],
  );
  return { languageCode: row.code, languageName: row.name, plural: { number: row.number, formula: row.formula } };
}

/** StoreWriteContext of a commit (formats.md §2.5, §3.1 header fields). */
export function writeContext(info: TranslationWriteInfo, author: GitIdentity | null, template: Buffer | null, reportBugsTo = ''): StoreWriteContext {
  const context: StoreWriteContext = {
    languageCode: info.languageCode,
    plural: info.plural,
    revisionDate: new Date(),
    generator: GENERATOR,
    languageTeam: `${info.languageName} <${info.translationUrl}>`,
    template,
  };
  if (author) context.lastTranslator = `${author.name} <${author.email}>`;
  if (reportBugsTo !== '') context.reportMsgidBugsTo = reportBugsTo;
  return context;
}
