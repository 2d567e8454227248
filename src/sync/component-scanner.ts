import { Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { FormatParseError, type ParsedUnit, type TranslationFileFormat } from '../formats/format';
import { getFileFormat } from '../formats/format.registry';
import type { Component } from '../modules/components/component.entity';
import { gitBlobHash } from '../vcs/git-blob-hash';
import type { GitRepository } from '../vcs/git.repository';
import { matchFilemask } from '../vcs/filemask';
import { recordChanges, type ChangeScope } from './change-log';
import { LanguageResolver, type KnownLanguage } from './language-resolver';
import { ignoreProgress, type SyncProgressListener } from './sync-progress';
import { refreshTranslationStatistics } from './translation-statistics';
import { sourceDrafts, templateStrings, translationDrafts, type TemplateString, type UnitDraft } from './unit-drafts';
import { applyUnitSyncPlan, loadStoredUnits, loadUnitIdsByHash } from './unit-store';
import { ACTION_PARSE_ERROR, ACTION_RESOURCE_UPDATE, planUnitSync } from './unit-sync-plan';

// Reads a component's files from its working copy into translations and units: Weblate's
// `create_translations` + `Translation.check_sync` for monolingual formats.

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
  /** Git blob of the file, then of the template (weblate-api.md §11.3). */
  revision: string;
  content: Buffer | null;
}

@Injectable()
export class ComponentScanner {
  private readonly logger = new Logger(ComponentScanner.name);

  constructor(private readonly dataSource: DataSource) {}

  async scan(component: ScannableComponent, repository: GitRepository, options: ScanOptions = {}): Promise<ScanResult> {
    const warnings: string[] = [];
    const warn = (line: string): void => {
      warnings.push(line);
      this.logger.warn(`${component.project.slug}/${component.slug}: ${line}`);
    };
    const format = this.formatOf(component);
    const templateContent = await this.readTemplate(component, repository);
    const templateBlob = gitBlobHash(templateContent);
    const strings = templateStrings(
      this.parse(format, templateContent, component.template, warn, true),
      component.sourceLanguage.code,
    );
    const files = await this.translationFiles(component, repository, templateBlob, warn);
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
    for (const [index, file] of files.entries()) {
      const known = existing.get(file.language.id);
      if (known && known.revision === file.revision && !options.force) {
        keptIds.push(known.id);
      } else {
        const drafts = file.isSource ? sourceDrafts(strings) : this.translationDrafts(format, file, strings, warn);
        if (drafts === null) {
          await this.recordParseError(component, known?.id ?? null, file, warnings[warnings.length - 1]);
          if (known) keptIds.push(known.id);
        } else {
          keptIds.push(await this.syncTranslation(component, file, drafts, source));
          rescanned += 1;
        }
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
    await onProgress(99, warnings.slice(logged));
    return { translations: keptIds.length, units, rescanned, warnings };
  }

  private formatOf(component: Component): TranslationFileFormat {
    const format = getFileFormat(component.fileFormat);
    if (!format) throw new ComponentScanError(`Unsupported file format: ${component.fileFormat}`);
    // Glossa's formats are monolingual: the template's keys are the strings (languages §2.1).
    if (format.monolingual && !component.template) {
      throw new ComponentScanError('This file format needs a monolingual base language file (template).');
    }
    return format;
  }

  private async readTemplate(component: Component, repository: GitRepository): Promise<Buffer> {
    try {
      return await repository.readFile(component.template);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new ComponentScanError(`Template file not found: ${component.template}`);
      }
      throw error;
    }
  }

  /** Parses a file; a template that cannot be parsed stops the scan, a translation file is skipped (null). */
  private parse(
    format: TranslationFileFormat,
    content: Buffer,
    filename: string,
    warn: (line: string) => void,
    fatal: true,
  ): ParsedUnit[];
  private parse(format: TranslationFileFormat, content: Buffer, filename: string, warn: (line: string) => void, fatal: false): ParsedUnit[] | null;
  private parse(format: TranslationFileFormat, content: Buffer, filename: string, warn: (line: string) => void, fatal: boolean): ParsedUnit[] | null {
    try {
      return format.parse(content, {
        onDuplicate: (duplicate) => warn(`${filename}: duplicate string "${duplicate.context}" skipped`),
      });
    } catch (error) {
      if (!(error instanceof FormatParseError)) throw error;
      if (fatal) throw new ComponentScanError(`Could not parse ${filename}: ${error.message}`);
      warn(`Could not parse ${filename}: ${error.message}`);
      return null;
    }
  }

  private translationDrafts(
    format: TranslationFileFormat,
    file: TranslationFile,
    strings: readonly TemplateString[],
    warn: (line: string) => void,
  ): UnitDraft[] | null {
    const units = this.parse(format, file.content ?? Buffer.alloc(0), file.filename, warn, false);
    return units === null ? null : translationDrafts(strings, units);
  }

  /** The source translation (its file is the template) followed by one translation per matched file. */
  private async translationFiles(
    component: ScannableComponent,
    repository: GitRepository,
    templateBlob: string,
    warn: (line: string) => void,
  ): Promise<TranslationFile[]> {
    const source = component.sourceLanguage;
    const files: TranslationFile[] = [
      {
        language: { id: source.id, code: source.code, aliases: source.aliases },
        languageCode: source.code,
        filename: component.template,
        isSource: true,
        revision: `${templateBlob},${templateBlob}`,
        content: null,
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
      const content = await repository.readFile(match.path);
      files.push({
        language,
        languageCode: match.languageCode,
        filename: match.path,
        isSource: false,
        revision: `${gitBlobHash(content)},${templateBlob}`,
        content,
      });
    }
    return files;
  }

  private async knownLanguages(): Promise<KnownLanguage[]> {
    return this.dataSource.query('SELECT id, code, aliases FROM languages ORDER BY id');
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
  private syncTranslation(
    component: ScannableComponent,
    file: TranslationFile,
    drafts: UnitDraft[],
    source: SourceTranslation,
  ): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const id = await upsertTranslation(manager, component.id, file);
      const stored = await loadStoredUnits(manager, id);
      const plan = planUnitSync(stored, drafts, file.isSource);
      if (file.isSource) {
        const inserted = await applyUnitSyncPlan(manager, id, plan, 'self');
        const deleted = new Set(plan.deletes);
        source.id = id;
        source.unitIds = new Map([...stored.filter((unit) => !deleted.has(unit.id)).map((unit) => [unit.idHash, unit.id] as const), ...inserted]);
      } else {
        // The source translation was unchanged (not rescanned): read its unit ids once.
        if (source.unitIds === null && source.id !== null) source.unitIds = await loadUnitIdsByHash(manager, source.id);
        await applyUnitSyncPlan(manager, id, plan, source.unitIds ?? new Map());
      }
      // Unit changes first, then "Resource update", the order Weblate's check_sync writes them in.
      await recordChanges(manager, this.scope(component, id, file.language.id), [
        ...plan.changes,
        { action: ACTION_RESOURCE_UPDATE, unitId: null, target: '', old: '' },
      ]);
      await manager.query('UPDATE translations SET revision = $2 WHERE id = $1', [id, file.revision]);
      await refreshTranslationStatistics(manager, [id]);
      return id;
    });
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

async function upsertTranslation(manager: EntityManager, componentId: number, file: TranslationFile): Promise<number> {
  const [{ id }] = await manager.query(
    `INSERT INTO translations (component_id, language_id, language_code, filename, is_source, is_template)
     VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (component_id, language_id) DO UPDATE
        SET language_code = EXCLUDED.language_code, filename = EXCLUDED.filename,
            is_source = EXCLUDED.is_source, is_template = EXCLUDED.is_template
     RETURNING id`,
    [componentId, file.language.id, file.languageCode, file.filename, file.isSource],
  );
  return id;
}
