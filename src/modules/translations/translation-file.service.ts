import { Inject, Injectable } from '@nestjs/common';
import { zipSync } from 'fflate';
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { ApiValidationError, notFound } from '../../common/http/api-errors';
import { formatTimestamp } from '../../common/serialization/timestamp';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { pathOf } from '../../common/links/link-builder';
import { FileParser } from '../../formats/file-parser';
import { FormatParseError, FormatWriteError } from '../../formats/format';
import { getFileFormat, usesTemplate } from '../../formats/format.registry';
import type { UnitWrite } from '../../formats/store';
import { loadWriteInfo, pluralTargetForms, unitWrite, writeContext } from '../../sync/store-changes';
import { resolveFileInside, UnsafePathError } from '../../vcs/safe-path';
import { TranslationExportService } from './translation-export.service';
import { TranslationLookup, TranslationRef, type ComponentRef } from './translation-lookup.service';

// GET /api/translations/<p>/<c>/<lang>/file/ (weblate-api.md §10.9): the translation file as stored in the
// component's working copy, <DATA_DIR>/vcs/<project>/<component>/<filename>, or with `?format=<exporter>`
// a file built from the database by that exporter (formats.md §4, translation-export.service.ts).

export interface TranslationFileDownload {
  content: Buffer;
  contentType: string;
  /** Weblate names the download `<project>-<component>-<language><ext>`, not after the real file. */
  downloadName: string;
  lastModified: Date | null;
}

/** `format` values that mean "the file as it is": none, and the `format=api` every emitted link carries. */
const NO_CONVERSION = new Set(['', 'api']);

/**
 * The `format` a file download asks for. `wlc download --convert X` appends `?format=X` to the `file_url` it
 * was given by plain concatenation; with the default LINK_FORMAT=always that link already ends in
 * `?format=api`, so the server sees `format=api?format=X` (wlc-client.md §6.1) and X is meant.
 */
function requestedFormat(query: Record<string, unknown>): string {
  const raw = typeof query.format === 'string' ? query.format : '';
  const appended = /^api\?format=([^?&]*)$/.exec(raw);
  return appended ? appended[1] : raw;
}

/** Content types of the original files by extension (Weblate serves the format's MIME type). */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.json': 'application/json',
  '.po': 'text/x-po',
  '.pot': 'text/x-po',
  '.xliff': 'application/x-xliff+xml',
  '.xlf': 'application/x-xliff+xml',
  '.xml': 'application/xml',
  '.yaml': 'text/yaml',
  '.yml': 'text/yaml',
  '.csv': 'text/csv',
  '.properties': 'text/plain',
  '.strings': 'text/plain',
  '.ftl': 'text/plain',
};

@Injectable()
export class TranslationFileService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lookup: TranslationLookup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly parser: FileParser,
    private readonly exports: TranslationExportService,
  ) {}

  async download(projectSlug: string, componentSlug: string, languageCode: string, query: Record<string, unknown>): Promise<TranslationFileDownload> {
    const translation = await this.lookup.translation(projectSlug, componentSlug, languageCode);
    const format = requestedFormat(query);
    if (!NO_CONVERSION.has(format)) return this.exports.download(translation, format, typeof query.q === 'string' ? query.q : '');
    if (typeof query.q === 'string' && query.q !== '') throw new ApiValidationError({ q: ['Query string is ignored without format'] });
    if (translation.filename === '') throw notFound('No translation file!');
    const { content, fileTime } = await this.fileContent(translation);
    const extension = path.posix.extname(translation.filename) || '.json';
    // HTTP dates have whole seconds; the translation's last content change, else the file's modification time.
    const lastChange = formatTimestamp(translation.lastChange);
    const lastModified = lastChange !== null ? new Date(`${lastChange.slice(0, 19)}Z`) : fileTime;
    return {
      content,
      contentType: CONTENT_TYPES[extension.toLowerCase()] ?? 'application/octet-stream',
      downloadName: `${projectSlug}-${componentSlug}-${translation.languageCode}${extension}`,
      lastModified,
    };
  }

  /**
   * `GET /api/components/<p>/<c>/file/`: a ZIP of every translation file of the component, stored under its
   * repository path, as Weblate's component download (weblate-api.md §5.7; `wlc download P/C -o DIR`).
   */
  async archive(projectSlug: string, componentSlug: string, query: Record<string, unknown>): Promise<TranslationFileDownload> {
    const component = await this.lookup.component(projectSlug, componentSlug);
    const format = requestedFormat(query);
    // Weblate takes `zip` (the default) or `zip:<exporter>` (every translation converted, formats.md §4).
    const exporterId = format.startsWith('zip:') ? format.slice(4) : null;
    if (!NO_CONVERSION.has(format) && format !== 'zip' && exporterId === null) throw notFound(`Conversion to ${format} is not supported`);
    if (exporterId !== null) this.exports.exporterFor(component, exporterId);
    const rows: Array<{ id: number; filename: string; language_id: number; code: string; plural_number: number; is_source: boolean; last_change: string | null }> =
      await this.dataSource.query(
        `SELECT t.id, t.filename, t.language_id, l.code, l.plural_number, t.is_source, t.last_change
           FROM translations t JOIN languages l ON l.id = t.language_id
          WHERE t.component_id = $1 AND t.filename <> '' ORDER BY t.id`,
        [component.id],
      );
    const files: Record<string, Uint8Array> = {};
    let lastModified: Date | null = null;
    for (const row of rows) {
      const translation: TranslationRef = {
        id: row.id,
        component,
        languageId: row.language_id,
        languageCode: row.code,
        pluralNumber: row.plural_number,
        isSource: row.is_source,
        filename: row.filename,
        lastChange: row.last_change,
      };
      if (exporterId !== null) {
        const converted = await this.exports.download(translation, exporterId, '');
        files[converted.downloadName] = converted.content;
        continue;
      }
      const { content, fileTime } = await this.fileContent(translation);
      files[row.filename] = content;
      if (fileTime !== null && (lastModified === null || fileTime > lastModified)) lastModified = fileTime;
    }
    return {
      content: Buffer.from(zipSync(files, { level: 6, mtime: lastModified ?? new Date('1980-01-01T00:00:00Z') })),
      contentType: 'application/zip',
      downloadName: `${projectSlug}-${componentSlug}.zip`,
      lastModified,
    };
  }

  /**
   * The file's bytes: the working copy's file, with the units edited through the API and not committed yet
   * applied exactly as the next commit will write them (src/formats/file-writer.ts, in the parse worker).
   */
  private async fileContent(translation: TranslationRef): Promise<{ content: Buffer; fileTime: Date | null }> {
    const stored = await this.readWorkingCopyFile(translation.component, translation.filename);
    // Without a file in the working copy (never cloned, or a language not written yet) every translated unit is.
    const pending = await this.unitsToWrite(translation, stored === null);
    if (stored && pending.length === 0) return stored;
    const { component } = translation;
    const fileFormat = getFileFormat(component.fileFormat);
    if (!fileFormat) throw notFound('File not found');
    try {
      const template = usesTemplate(fileFormat, component.template) ? ((await this.readWorkingCopyFile(component, component.template))?.content ?? null) : null;
      const info = await loadWriteInfo(this.dataSource.manager, translation.id);
      const translationUrl = this.config.siteUrl + pathOf('projects', component.projectSlug, component.slug, info.languageCode);
      const context = writeContext({ ...info, translationUrl }, null, template);
      // Plural targets padded to the translation's plural count, as the commit writes them (store-changes.ts).
      const update = pending.map((write) => ({ ...write, target: pluralTargetForms(write.source, write.target, translation.isSource ? undefined : info.plural.number) }));
      return { content: await this.parser.write(fileFormat, stored?.content ?? null, { update }, context), fileTime: null };
    } catch (error) {
      // A file in the working copy that no longer parses is served as it is.
      if (error instanceof FormatParseError && stored) return stored;
      // No file and a format that cannot start one without new_base (bilingual): nothing to serve.
      if (error instanceof FormatWriteError && !stored) throw notFound('File not found');
      throw error;
    }
  }

  /** The file from the working copy, or null when the component was never cloned or the file is missing. */
  private async readWorkingCopyFile(component: ComponentRef, filename: string): Promise<{ content: Buffer; fileTime: Date } | null> {
    const { projectSlug, slug } = component;
    if ([projectSlug, slug].some((s) => s === '.' || s === '..' || /[/\\\u0000]/.test(s))) return null;
    const root = path.join(this.config.dataDir, 'vcs', projectSlug, slug);
    try {
      // Refuses traversal, symlinks leaving the working copy and anything under .git (src/vcs/safe-path.ts).
      const file = await resolveFileInside(root, filename);
      const [content, info] = await Promise.all([readFile(file), stat(file)]);
      return { content, fileTime: info.mtime };
    } catch (error) {
      if (error instanceof UnsafePathError) throw notFound('File not found');
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      throw error;
    }
  }

  /** Units of the translation waiting for write-back, in file order; a never-cloned file gets every translated unit. */
  private async unitsToWrite(translation: TranslationRef, all: boolean): Promise<UnitWrite[]> {
    const rows: Array<{ context: string; source: string; target: string; state: number; note: string; flags: string; location: string }> = await this.dataSource.query(
      `SELECT context, source, target, state, note, flags, location FROM units
        WHERE translation_id = $1 AND (pending OR ($2 AND target <> '')) ORDER BY position, id`,
      [translation.id, all],
    );
    return rows.map((row) => unitWrite(row, translation.isSource));
  }
}
