import { Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { FileParser, LIMIT_SETTINGS } from '../formats/file-parser';
import { FormatLimitError, FormatParseError } from '../formats/format';
import { getFileFormat, usesTemplate } from '../formats/format.registry';
import type { ParseOutcome } from '../formats/parse-worker/parser-pool';
import type { FileFormat, PluralDeclaration } from '../formats/store';
import type { Component } from '../modules/components/component.entity';
import { gitBlobHash } from '../vcs/git-blob-hash';
import type { GitRepository } from '../vcs/git.repository';
import { matchFilemask } from '../vcs/filemask';
import { UnsafePathError } from '../vcs/safe-path';
import { recordChanges, type ChangeScope } from './change-log';
import { LanguageResolver, type KnownLanguage } from './language-resolver';
import { ignoreProgress, type SyncProgressListener } from './sync-progress';
import { refreshTranslationStatistics } from './translation-statistics';
import { bilingualSourceStrings } from './bilingual-sources';
import { failureLine, updateParseErrorAlert, type FileFailure } from './component-alerts';
import { DuplicateFindings, updateDuplicateStringAlert } from './duplicate-string-alert';
import { bilingualDrafts, mapInSlices, sourceDrafts, stateRules, templateStrings, translationDrafts, unitsByContext, type StateRules, type TemplateString, type UnitDraft } from './unit-drafts';
import { ACTION_NEW_SOURCE, ACTION_NEW_STRING } from '../modules/changes/change-actions';
import { applyUnitSyncPlan, loadStoredUnits, loadUnitIdsByHash, type NewUnitHistory } from './unit-store';
import { ACTION_PARSE_ERROR, ACTION_RESOURCE_UPDATE, planUnitSyncInSlices } from './unit-sync-plan';
import { checkImportedUnits } from './import-checks';
import { refreshComponentSourceChecks } from './source-unit-checks';
import { recheckUnits, unitsWithSiblings, type TranslationCheckSettings } from './unit-checks';

// Reads a component's files from its working copy into translations and units: Weblate's
// `create_translations` + `Translation.check_sync` (formats.md §2.1) for every registered format. Monolingual
// components (a template) take their strings from the template; bilingual ones from the files themselves
// (plus new_base). Files are read one at a time
// and parsed in a worker thread within the configured limits (FileParser); a translation file that cannot
// be read, parsed or stored is reported (task log, change 24 "Could not parse translation") and skipped,
// and the other files are imported (issue 10, items 9 and 10). Only the template is indispensable.

/** A component with the relations the scan reads (project for aliases and history, source language). */
export type ScannableComponent = Component & Required<Pick<Component, 'project' | 'sourceLanguage'>>;

export interface ScanOptions {
  /** Re-read every file even when its revision is unchanged (Weblate's "file-scan"). */
  force?: boolean;
  onProgress?: SyncProgressListener;
  /** Percent already done when the scan starts (cloning counts as the first part). */
  progressFrom?: number;
}

export interface ScanResult {
  /** Translations of the component after the scan, the source translation included. */
  translations: number;
  units: number;
  /** Translations whose file was (re)read. */
  rescanned: number;
  warnings: string[];
}

/** The configuration cannot be scanned at all (unknown format, missing template). Safe to show to users. */
export class ComponentScanError extends Error {
  override readonly name = 'ComponentScanError';

  constructor(
    message: string,
    /** The template (or intermediate) file that could not be read, for the component's ParseError alert. */
    readonly failure?: FileFailure,
  ) {
    super(message);
  }
}

/** The component's source translation as far as the scan knows it. */
interface SourceTranslation {
  id: number | null;
  /** Its units' ids by id_hash, once known. */
  unitIds: Map<string, string> | null;
}

interface TranslationFile {
  language: KnownLanguage;
  /** The code as written in the file name; the source translation uses its language's code. */
  languageCode: string;
  filename: string;
  isSource: boolean;
  sourceLanguageCode: string;
}

/** A file skipped for a reason worth telling the administrator (the task log, a change 24 and the ParseError alert carry it). */
export class SkippedFileError extends Error {
  constructor(
    message: string,
    readonly failure?: FileFailure,
  ) {
    super(message);
  }
}

/** How the scan reads a component's files. */
interface ScanSetup {
  format: FileFormat;
  /** Units come from the template (formats.md §2.1). */
  monolingual: boolean;
  rules: StateRules;
  strings: TemplateString[];
  /** Git blob of the template ("" without one). */
  templateBlob: string;
  templateContent: Buffer | null;
}

/** A translation file read ahead of its turn: null drafts when its revision is the stored one. */
interface PreparedFile {
  revision: string;
  drafts: UnitDraft[] | null;
  plural?: PluralDeclaration;
  /** Warnings of its parse (duplicates), logged in its turn so the log keeps file order. */
  warnings: string[];
}

@Injectable()
export class ComponentScanner {
  private readonly logger = new Logger(ComponentScanner.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly parser: FileParser,
  ) {}

  async scan(component: ScannableComponent, repository: GitRepository, options: ScanOptions = {}): Promise<ScanResult> {
    const warnings: string[] = [];
    const warn = (line: string): void => {
      warnings.push(line);
      this.logger.warn(`${component.project.slug}/${component.slug}: ${line}`);
    };
    const files = await this.translationFiles(component, repository, warn);
    const failures: FileFailure[] = [];
    // Every file this scan parses, with the entries it skipped as duplicates (the DuplicateString alert).
    const duplicates = new DuplicateFindings();
    const setup = await this.setup(component, repository, files, warn, duplicates).catch(async (error: unknown) => {
      // The template cannot be read: nothing is imported, the alert names it.
      if (error instanceof ComponentScanError && error.failure) await updateParseErrorAlert(this.dataSource, component, [error.failure]);
      throw error;
    });
    const existing = await this.existingRevisions(component.id);

    const onProgress = options.onProgress ?? ignoreProgress;
    const from = options.progressFrom ?? 0;
    let logged = 0;
    const report = async (done: number): Promise<void> => {
      const percent = Math.floor(from + ((100 - from) * done) / (files.length + 1));
      await onProgress(Math.min(99, percent), warnings.slice(logged));
      logged = warnings.length;
    };
    await report(0);

    let rescanned = 0;
    const source: SourceTranslation = { id: existing.get(component.sourceLanguageId)?.id ?? null, unitIds: null };
    const keptIds: number[] = [];
    // The next file is read and parsed (worker) and its drafts built while this one is stored (database):
    // issue 11, the two took turns before. One file ahead at most; its warnings wait for its turn.
    let next = this.prepareAhead(setup, repository, files, 0, existing, options.force === true, duplicates);
    for (const [index, file] of files.entries()) {
      const known = existing.get(file.language.id);
      // Never null here: prepareAhead gives null only past the last file.
      const current = next!;
      try {
        const prepared = await current;
        next = this.prepareAhead(setup, repository, files, index + 1, existing, options.force === true, duplicates);
        for (const line of prepared.warnings) warn(line);
        if (prepared.drafts === null) {
          keptIds.push(known!.id);
        } else {
          keptIds.push(await this.syncTranslation(component, file, prepared.revision, prepared.drafts, source, prepared.plural));
          rescanned += 1;
        }
      } catch (error) {
        if (!(error instanceof SkippedFileError)) throw error;
        // The file could not be read or parsed: the next one was not started yet.
        if (next === current) next = this.prepareAhead(setup, repository, files, index + 1, existing, options.force === true, duplicates);
        // The translation keeps what it had (Weblate keeps the last good state of a file it cannot parse).
        warn(error.message);
        failures.push(error.failure ?? { filename: file.filename, line: null, error: error.message });
        await this.recordParseError(component, known?.id ?? null, file, error.message);
        if (known) keptIds.push(known.id);
      }
      await report(index + 1);
    }
    await this.dataSource.query('DELETE FROM translations WHERE component_id = $1 AND NOT (id = ANY($2::int[]))', [
      component.id,
      keptIds,
    ]);
    const [{ units }] = await this.dataSource.query(
      'SELECT count(*)::int AS units FROM units u JOIN translations t ON t.id = u.translation_id WHERE t.component_id = $1',
      [component.id],
    );
    await updateParseErrorAlert(this.dataSource, component, failures);
    const present = new Set([...files.map((file) => file.filename), component.template, component.intermediate, component.newBase].filter((name) => name));
    await updateDuplicateStringAlert(this.dataSource, component, duplicates, present);
    // The deferred project-wide pass of `inconsistent` (Weblate's batch checks, §3.2): only strings another
    // component of the project shares.
    if (rescanned > 0) await this.dataSource.transaction(async (manager) => recheckUnits(manager, await unitsWithSiblings(manager, component.id)));
    // The component-wide pass of the batch source checks (multiple_failures, long_untranslated; §1.6, §3.2).
    if (rescanned > 0) await this.dataSource.transaction((manager) => refreshComponentSourceChecks(manager, component.id));
    await onProgress(99, warnings.slice(logged));
    return { translations: keptIds.length, units, rescanned, warnings };
  }

  /**
   * Reads files[index] and, unless its revision is the stored one, builds its drafts; null past the end. The
   * warnings are kept for the file's turn; a failure (e.g. SkippedFileError) is marked as handled here and
   * thrown when the scan awaits it, in file order.
   */
  private prepareAhead(setup: ScanSetup, repository: GitRepository, files: readonly TranslationFile[], index: number, existing: Map<number, { id: number; revision: string }>, force: boolean, duplicates: DuplicateFindings): Promise<PreparedFile> | null {
    if (index >= files.length) return null;
    const file = files[index];
    const prepare = async (): Promise<PreparedFile> => {
      const warnings: string[] = [];
      const read = await this.readFile(setup, repository, file);
      const known = existing.get(file.language.id);
      if (known && known.revision === read.revision && !force && !(file.isSource && !setup.monolingual)) return { revision: read.revision, drafts: null, warnings };
      const { drafts, plural } = await this.drafts(setup, file, read.content, (line) => warnings.push(line), duplicates);
      return { revision: read.revision, drafts, plural, warnings };
    };
    const prepared = prepare();
    prepared.catch(() => undefined);
    return prepared;
  }

  private formatOf(component: Component): FileFormat {
    const format = getFileFormat(component.fileFormat);
    if (!format) throw new ComponentScanError(`Unsupported file format: ${component.fileFormat}`);
    if (format.kind === 'mono' && !component.template) {
      throw new ComponentScanError('This file format needs a monolingual base language file (template).');
    }
    return format;
  }

  /** The format and the source strings: the template's (monolingual) or the files' own (bilingual). */
  private async setup(component: ScannableComponent, repository: GitRepository, files: readonly TranslationFile[], warn: (line: string) => void, duplicates: DuplicateFindings): Promise<ScanSetup> {
    const format = this.formatOf(component);
    const monolingual = usesTemplate(format, component.template);
    const rules = stateRules(format.id, component.project.translationReview);
    const sourceCode = component.sourceLanguage.code;
    if (!monolingual) {
      const strings = await bilingualSourceStrings(files, sourceCode, {
        newBase: component.newBase ? () => this.readTemplate(component.newBase, repository) : null,
        read: (file) => this.readTranslationFile(repository, file.filename),
        parse: async (content, file) => {
          const outcome = await this.parser.parse(format, content, file?.language.code ?? sourceCode);
          duplicates.record(file?.filename ?? component.newBase, file?.language.code ?? sourceCode, outcome.duplicates);
          return outcome.units;
        },
        skippable: (error) => error instanceof SkippedFileError || error instanceof FormatParseError,
      });
      return { format, monolingual, rules, strings, templateBlob: '', templateContent: null };
    }
    const templateContent = await this.readTemplate(component.template, repository);
    const templateUnits = await this.parseIndispensable(format, templateContent, component.template, sourceCode, warn, duplicates);
    // Weblate's intermediate file: the source text shown to translators, keyed like the template.
    const intermediate = component.intermediate
      ? unitsByContext(await this.parseIndispensable(format, await this.readTemplate(component.intermediate, repository), component.intermediate, sourceCode, warn, duplicates))
      : undefined;
    const strings = await mapInSlices(templateUnits, (slice) => templateStrings(slice, sourceCode, intermediate));
    return { format, monolingual, rules, strings, templateBlob: gitBlobHash(templateContent), templateContent };
  }

  /** A file's content and revision (git blob of the file, then of the template, weblate-api.md §11.3). */
  private async readFile(setup: ScanSetup, repository: GitRepository, file: TranslationFile): Promise<{ content: Buffer | null; revision: string }> {
    if (file.isSource) {
      return { content: setup.templateContent, revision: setup.monolingual ? `${setup.templateBlob},${setup.templateBlob}` : '' };
    }
    const content = await this.readTranslationFile(repository, file.filename);
    return { content, revision: `${gitBlobHash(content)},${setup.templateBlob}` };
  }

  /** The template, within MAX_FILE_BYTES; without it nothing can be imported, so every problem stops the scan. */
  private async readTemplate(filename: string, repository: GitRepository): Promise<Buffer> {
    try {
      return await this.readChecked(repository, filename);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new ComponentScanError(`Template file not found: ${filename}`);
      }
      const problem = fileProblem(error);
      if (problem !== null) throw new ComponentScanError(`Could not read ${filename}: ${problem}`, { filename, line: null, error: problem });
      throw error;
    }
  }

  /** A translation file, within MAX_FILE_BYTES; any problem with it skips it (SkippedFileError). */
  private async readTranslationFile(repository: GitRepository, filename: string): Promise<Buffer> {
    try {
      return await this.readChecked(repository, filename);
    } catch (error) {
      const problem = fileProblem(error);
      if (problem !== null) throw new SkippedFileError(`Skipping ${filename}: ${problem}`, { filename, line: null, error: problem });
      throw error;
    }
  }

  /** Reads a file only when its size is within the limit: a huge file is refused before it is in memory. */
  private async readChecked(repository: GitRepository, filename: string): Promise<Buffer> {
    this.parser.assertSize(await repository.fileSize(filename));
    return repository.readFile(filename);
  }

  /** The units of the template (or intermediate); one that cannot be parsed stops the scan. */
  private async parseIndispensable(format: FileFormat, content: Buffer, filename: string, languageCode: string, warn: (line: string) => void, duplicates: DuplicateFindings) {
    try {
      return (await this.parse(format, content, filename, languageCode, warn, duplicates)).units;
    } catch (error) {
      if (error instanceof SkippedFileError) throw new ComponentScanError(error.message, error.failure);
      throw error;
    }
  }

  /** Parses a file in the parse worker; a bad file or one past a limit is a SkippedFileError naming it and the problem. */
  private async parse(format: FileFormat, content: Buffer, filename: string, languageCode: string, warn: (line: string) => void, duplicates: DuplicateFindings): Promise<ParseOutcome> {
    try {
      const outcome = await this.parser.parse(format, content, languageCode);
      duplicates.record(filename, languageCode, outcome.duplicates);
      for (const context of outcome.duplicates) warn(`${filename}: duplicate string "${context}" skipped`);
      const unreported = outcome.duplicateCount - outcome.duplicates.length;
      if (unreported > 0) warn(`${filename}: ${unreported} more duplicate strings skipped`);
      return outcome;
    } catch (error) {
      if (error instanceof FormatParseError) {
        const problem = describeParseError(error);
        throw new SkippedFileError(`Could not parse ${filename}: ${problem}`, { filename, line: failureLine(error.message), error: problem });
      }
      throw error;
    }
  }

  private async drafts(setup: ScanSetup, file: TranslationFile, content: Buffer | null, warn: (line: string) => void, duplicates: DuplicateFindings): Promise<{ drafts: UnitDraft[]; plural?: PluralDeclaration }> {
    if (file.isSource || content === null) return { drafts: await mapInSlices(setup.strings, sourceDrafts) };
    const outcome = await this.parse(setup.format, content, file.filename, file.language.code, warn, duplicates);
    const sourceCode = file.sourceLanguageCode;
    // The file's own plural (PO Plural-Forms), else the one the format derives from the language (stringsdict).
    const languagePlural = file.language.plural;
    const plural = outcome.plural ?? (languagePlural ? setup.format.translationPlural?.(file.language.code, languagePlural) : undefined);
    if (!setup.monolingual) return { drafts: await mapInSlices(outcome.units, (slice) => bilingualDrafts(slice, sourceCode, setup.rules)), plural };
    const byContext = unitsByContext(outcome.units);
    return { drafts: await mapInSlices(setup.strings, (slice) => translationDrafts(slice, byContext, setup.rules)), plural };
  }

  /** The source translation (its file is the template) followed by one translation per matched file. */
  private async translationFiles(component: ScannableComponent, repository: GitRepository, warn: (line: string) => void): Promise<TranslationFile[]> {
    const source = component.sourceLanguage;
    const files: TranslationFile[] = [
      {
        language: { id: source.id, code: source.code, aliases: source.aliases },
        languageCode: source.code,
        filename: component.template,
        isSource: true,
        sourceLanguageCode: source.code,
      },
    ];
    const resolver = new LanguageResolver(await this.knownLanguages(), component.project.languageAliases);
    const taken = new Set([source.id]);
    const matches = matchFilemask(await repository.listFiles(), component.filemask, component.languageRegex);
    for (const match of matches) {
      const language = resolver.resolve(match.languageCode);
      if (!language) {
        warn(`Skipping ${match.path}: unknown language code "${match.languageCode}"`);
        continue;
      }
      // The source language's own file is the template for monolingual formats (Weblate: the source
      // translation's filename is the template); a second file for one language is ambiguous.
      if (language.id === source.id) continue;
      if (taken.has(language.id)) {
        warn(`Skipping ${match.path}: another file already provides ${language.code}`);
        continue;
      }
      taken.add(language.id);
      // Read later, one at a time: only one file of a component is in memory at once.
      files.push({ language, languageCode: match.languageCode, filename: match.path, isSource: false, sourceLanguageCode: source.code });
    }
    return files;
  }

  private async knownLanguages(): Promise<KnownLanguage[]> {
    const rows: Array<{ id: number; code: string; aliases: string[]; plural_number: number; plural_formula: string }> = await this.dataSource.query(
      'SELECT id, code, aliases, plural_number, plural_formula FROM languages ORDER BY id',
    );
    return rows.map((row) => ({ id: row.id, code: row.code, aliases: row.aliases, plural: { number: row.plural_number, formula: row.plural_formula } }));
  }

  private async existingRevisions(componentId: number): Promise<Map<number, { id: number; revision: string }>> {
    const rows: Array<{ id: number; languageId: number; revision: string }> = await this.dataSource.query(
      'SELECT id, language_id AS "languageId", revision FROM translations WHERE component_id = $1',
      [componentId],
    );
    return new Map(rows.map((row) => [row.languageId, { id: row.id, revision: row.revision }]));
  }

  /**
   * One transaction per translation: units, history and statistics change together. The source translation
   * comes first; it fills in `source` so the translations after it can link their units to its units.
   */
  private async syncTranslation(component: ScannableComponent, file: TranslationFile, revision: string, drafts: UnitDraft[], source: SourceTranslation, plural?: PluralDeclaration): Promise<number> {
    try {
      return await this.storeTranslation(component, file, revision, drafts, source, plural);
    } catch (error) {
      // A value PostgreSQL refuses (SQLSTATE class 22, "data exception", e.g. a file name longer than the
      // column): the transaction rolled back, so the file is skipped like one that cannot be parsed.
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('22')) throw error;
      const message = `Could not store ${file.filename}: ${(error as Error).message}`;
      if (file.isSource) throw new ComponentScanError(message);
      throw new SkippedFileError(message);
    }
  }

  private storeTranslation(component: ScannableComponent, file: TranslationFile, revision: string, drafts: UnitDraft[], source: SourceTranslation, plural?: PluralDeclaration): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const id = await upsertTranslation(manager, component.id, file, plural ?? null);
      const stored = await loadStoredUnits(manager, id);
      const plan = await planUnitSyncInSlices(stored, drafts, file.isSource);
      // Every string the scan creates records a change (issue 12), as Weblate's does: 13 "New source string"
      // in the source translation, 44 "New string to translate" in the others (the 4.x codes; 5.x calls them
      // 90/71), with the unit and its text. They come first, then 59/30 for changed strings, then 0.
      const history: NewUnitHistory = {
        action: file.isSource ? ACTION_NEW_SOURCE : ACTION_NEW_STRING,
        projectId: component.projectId,
        componentId: component.id,
        languageId: file.language.id,
      };
      if (file.isSource) {
        const inserted = await applyUnitSyncPlan(manager, id, plan, 'self', history);
        const deleted = new Set(plan.deletes);
        source.id = id;
        source.unitIds = new Map([...stored.filter((unit) => !deleted.has(unit.id)).map((unit) => [unit.idHash, unit.id] as const), ...inserted]);
        // Source checks of the strings that changed (checks-suggestions-search.md §1.6), stored on the source units.
        await checkImportedUnits(manager, id, id, { ...this.checkSettings(component, file), isSource: true }, [...plan.inserts, ...plan.updates]);
      } else {
        // The source translation was unchanged (not rescanned): read its unit ids once.
        if (source.unitIds === null && source.id !== null) source.unitIds = await loadUnitIdsByHash(manager, source.id);
        await applyUnitSyncPlan(manager, id, plan, source.unitIds ?? new Map(), history);
        // Quality checks of what changed, in the same pass (checks-suggestions-search.md §3.2).
        await checkImportedUnits(manager, id, source.id, this.checkSettings(component, file), [...plan.inserts, ...plan.updates]);
      }
      // Unit changes first, then "Resource update", the order Weblate's check_sync writes them in.
      await recordChanges(manager, this.scope(component, id, file.language.id), [
        ...plan.changes,
        { action: ACTION_RESOURCE_UPDATE, unitId: null, target: '', old: '' },
      ]);
      await manager.query('UPDATE translations SET revision = $2 WHERE id = $1', [id, revision]);
      await refreshTranslationStatistics(manager, [id]);
      return id;
    });
  }

  private checkSettings(component: ScannableComponent, file: TranslationFile): TranslationCheckSettings {
    return { fileFormat: component.fileFormat, checkFlags: component.checkFlags, languageCode: file.language.code, sourceLanguageCode: component.sourceLanguage.code };
  }

  private async recordParseError(component: ScannableComponent, translationId: number | null, file: TranslationFile, message = ''): Promise<void> {
    await recordChanges(this.dataSource.manager, this.scope(component, translationId, translationId === null ? null : file.language.id), [
      { action: ACTION_PARSE_ERROR, unitId: null, target: message, old: '', details: { filename: file.filename } },
    ]);
  }

  private scope(component: ScannableComponent, translationId: number | null, languageId: number | null): ChangeScope {
    return { projectId: component.projectId, componentId: component.id, translationId, languageId };
  }
}

/** What is wrong with a file that could not be read (null: not a problem of the file, e.g. a git failure). */
function fileProblem(error: unknown): string | null {
  if (error instanceof FormatLimitError) return describeParseError(error);
  if (error instanceof UnsafePathError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  // A dangling symlink, a loop, a directory where a file was expected, no permission.
  if (code === 'ENOENT' || code === 'ELOOP' || code === 'EISDIR' || code === 'ENOTDIR' || code === 'EACCES') return `the file cannot be read (${code})`;
  return null;
}

/** The parser's message, naming the setting that raises the limit when a limit was hit (task logs are for administrators). */
function describeParseError(error: FormatParseError): string {
  return error instanceof FormatLimitError ? `${error.message} (${LIMIT_SETTINGS[error.kind]})` : error.message;
}

async function upsertTranslation(manager: EntityManager, componentId: number, file: TranslationFile, plural: PluralDeclaration | null): Promise<number> {
  // The plural the file declares (PO Plural-Forms), else null: the language's (formats.md §2.3).
  const [{ id }] = await manager.query(
    `INSERT INTO translations (component_id, language_id, language_code, filename, is_source, is_template, plural_number, plural_formula)
     VALUES ($1, $2, $3, $4, $5, $5, $6, $7)
     ON CONFLICT (component_id, language_id) DO UPDATE
        SET language_code = EXCLUDED.language_code, filename = EXCLUDED.filename,
            is_source = EXCLUDED.is_source, is_template = EXCLUDED.is_template,
            plural_number = EXCLUDED.plural_number, plural_formula = EXCLUDED.plural_formula
     RETURNING id`,
    [componentId, file.language.id, file.languageCode, file.filename, file.isSource, plural?.number ?? null, plural?.formula ?? null],
  );
  return id;
}
