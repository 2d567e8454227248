import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError, SelectQueryBuilder } from 'typeorm';
import { componentVisibleSql } from '../../common/auth/access-sql';
import { ApiValidationError, badRequest, notFound, permissionDenied } from '../../common/http/api-errors';
import type { ApiCaller, RequestContext } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { ACTION_ADDED_LANGUAGE, ACTION_REMOVE_TRANSLATION } from '../changes/change-actions';
import { recordChanges } from '../changes/change-recorder';
import { TranslationLookup } from './translation-lookup.service';
import { readComponentTranslations, readTranslationDetail } from './translation-read.statements';
import { RepositoryOperationsService } from '../../sync/repository-operations.service';
import { refreshTranslationStatistics } from '../../sync/translation-statistics';
import { compileLanguageRegex } from '../../vcs/filemask';
import { getFileFormat, usesTemplate } from '../../formats/format.registry';
import { Translation } from './translation.entity';
import { UnsafePathError } from '../../vcs/safe-path';

/** A translation with everything its response needs, and last_change as text (microseconds kept). */
export interface LoadedTranslation {
  translation: Translation;
  lastChange: string | null;
}

export interface TranslationPage {
  page: ResolvedPage;
  count: number;
  items: LoadedTranslation[];
}

const UNIQUE_VIOLATION = '23505';

@Injectable()
export class TranslationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lookup: TranslationLookup,
    private readonly repositoryOperations: RepositoryOperationsService,
  ) {}

  /** `/api/translations/`: every translation ordered by id (§5.8); one count and one joined page query. */
  async list(pageRequest: PageRequest, caller: ApiCaller | null): Promise<TranslationPage> {
    // Only translations of components the caller can see (src/common/auth/access-sql.ts).
    const visible = componentVisibleSql(caller, 'c', 'p');
    const count = await this.query().where(visible).getCount();
    const page = resolvePage(pageRequest, count);
    const items = await this.load(this.query().where(visible).orderBy('t.id', 'ASC').offset(page.offset).limit(page.size));
    return { page, count, items };
  }

  /**
   * `/api/components/<p>/<c>/translations/`, ordered by id (§5.7). `prefetched`: the page the auth guard read
   * (COMPONENT_TRANSLATIONS_READ), if any.
   */
  async listForComponent(projectSlug: string, componentSlug: string, pageRequest: PageRequest, prefetched?: unknown): Promise<TranslationPage> {
    // A numbered page is one statement (translation-read.statements.ts); `page=last` needs the count first.
    if (pageRequest.page !== 'last') {
      const offset = (pageRequest.page - 1) * pageRequest.size;
      const found = await readComponentTranslations(this.dataSource, prefetched, projectSlug, componentSlug, pageRequest.size, offset);
      if (found === null) throw notFound();
      // A page past the end is 404 `Invalid page.` (the rows read for it are empty and dropped).
      return { page: resolvePage(pageRequest, found.count), count: found.count, items: found.items };
    }
    const component = await this.lookup.component(projectSlug, componentSlug);
    const count = await this.dataSource.getRepository(Translation).countBy({ componentId: component.id });
    const page = resolvePage(pageRequest, count);
    const query = this.query().where('t.componentId = :componentId', { componentId: component.id });
    const items = await this.load(query.orderBy('t.id', 'ASC').offset(page.offset).limit(page.size));
    return { page, count, items };
  }

  /** `prefetched`: the row the auth guard read for the detail route (TRANSLATION_DETAIL_READ), if any. */
  async get(projectSlug: string, componentSlug: string, languageCode: string, prefetched?: unknown): Promise<LoadedTranslation> {
    const item = await readTranslationDetail(this.dataSource, prefetched, projectSlug, componentSlug, languageCode);
    if (item === null) throw notFound();
    return item;
  }

  /**
   * DELETE (weblate-api.md §10.3): superusers only, never the source translation. Removes the translation and
   * its units and records 25 "Removed translation" on the component, then removes the file from the repository
   * in a commit with the component's delete_message (pushed when push_on_commit is on).
   */
  async remove(ctx: RequestContext, projectSlug: string, componentSlug: string, languageCode: string): Promise<void> {
    const translation = await this.lookup.translation(projectSlug, componentSlug, languageCode);
    if (!ctx.can('translation.delete') || translation.isSource) throw permissionDenied('Can not delete translation');
    const callerId = ctx.caller?.id ?? null;
    await this.dataSource.transaction(async (manager) => {
      await manager.query('DELETE FROM translations WHERE id = $1', [translation.id]);
      await recordChanges(manager, [
        {
          action: ACTION_REMOVE_TRANSLATION,
          projectId: translation.component.projectId,
          componentId: translation.component.id,
          translationId: null,
          languageId: translation.languageId,
          unitId: null,
          userId: callerId,
          authorId: callerId,
          target: translation.filename,
        },
      ]);
    });
    // The file leaves the repository in a commit with delete_message (src/sync).
    const [language]: Array<{ name: string }> = await this.dataSource.query('SELECT name FROM languages WHERE id = $1', [translation.languageId]);
    await this.repositoryOperations.removeLanguageFile(
      translation.component.id,
      { code: translation.languageCode, name: language?.name ?? translation.languageCode, filename: translation.filename },
      callerId,
    );
  }

  /**
   * POST `/api/components/<p>/<c>/translations/` (weblate-api.md §10.10): adds a language. The translation and
   * its units (copies of the source units, untranslated) are created in the database and 48 "Added new
   * language" is recorded; then the file is created from new_base in the working copy and committed with
   * add_message (pushed when push_on_commit is on).
   */
  async addLanguage(ctx: RequestContext, projectSlug: string, componentSlug: string, body: unknown): Promise<LoadedTranslation> {
    const component = await this.lookup.component(projectSlug, componentSlug);
    if (!ctx.can('translation.add')) throw permissionDenied('Can not create translation');
    const code = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).language_code : undefined;
    if (typeof code !== 'string' || code === '') throw badRequest("Missing 'language_code' parameter");
    const languages: Array<{ id: number; code: string }> = await this.dataSource.query('SELECT id, code FROM languages WHERE code = $1', [code]);
    if (languages.length === 0) throw badRequest(`No language code '${code}' found!`);
    if (component.newLang !== 'add') throw permissionDenied('Could not add new translation file.');
    // Bilingual formats have no new-file content: a new language needs new_base (formats.md §2.4).
    const format = getFileFormat(component.fileFormat);
    if (format && !usesTemplate(format, component.template) && component.newBase === '') throw permissionDenied('Could not add new translation file.');
    const language = languages[0];
    if (!matchesLanguageRegex(component.languageRegex, language.code)) {
      throw new ApiValidationError({ language_code: [`Could not add '${code}'!`] });
    }
    const filename = component.filemask.replaceAll('*', language.code);
    await this.assertFileCreatable(component.id, code, filename);
    const callerId = ctx.caller?.id ?? null;
    let translationId = 0;
    try {
      await this.dataSource.transaction(async (manager) => {
        const [{ id }]: Array<{ id: number }> = await manager.query(
          `INSERT INTO translations (component_id, language_id, language_code, filename, is_source, is_template)
           VALUES ($1, $2, $3, $4, false, false) RETURNING id`,
          [component.id, language.id, language.code, filename],
        );
        translationId = id;
        await copySourceUnits(manager, id, component.id);
        await recordChanges(manager, [
          {
            action: ACTION_ADDED_LANGUAGE,
            projectId: component.projectId,
            componentId: component.id,
            translationId: id,
            languageId: language.id,
            unitId: null,
            userId: callerId,
            authorId: callerId,
            target: '',
          },
        ]);
        await refreshTranslationStatistics(manager, [id]);
      });
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === UNIQUE_VIOLATION) {
        throw new ApiValidationError({ language_code: [`Could not add '${code}'!`] });
      }
      throw error;
    }
    // The file is created from new_base (or empty) and committed with add_message (src/sync).
    await this.repositoryOperations.addLanguageFile(component.id, translationId, callerId);
    return this.get(projectSlug, componentSlug, language.code);
  }

  /**
   * The file must be creatable inside the working copy before anything is stored (issue 10, item 10: a
   * symlinked language directory once let the file's directories be created outside the checkout, then
   * failed with a 500 and a half-added language). Weblate answers a failed addition as 400 on language_code.
   */
  private async assertFileCreatable(componentId: number, code: string, filename: string): Promise<void> {
    try {
      await this.repositoryOperations.assertLanguageFileCreatable(componentId, filename);
    } catch (error) {
      if (error instanceof UnsafePathError) throw new ApiValidationError({ language_code: [`Could not add '${code}'! ${error.message}`] });
      throw error;
    }
  }

  private query(manager: EntityManager = this.dataSource.manager): SelectQueryBuilder<Translation> {
    return manager
      .getRepository(Translation)
      .createQueryBuilder('t')
      .innerJoinAndSelect('t.language', 'l')
      .innerJoinAndSelect('t.component', 'c')
      .innerJoinAndSelect('c.project', 'p')
      .innerJoinAndSelect('c.sourceLanguage', 'sl')
      .leftJoinAndSelect('t.lastAuthor', 'la');
  }

  /**
   * Runs the joined query once. Only many-to-one relations are joined, so offset/limit apply to translations
   * directly; last_change is taken from the raw row, where it is still PostgreSQL's text.
   */
  private async load(query: SelectQueryBuilder<Translation>): Promise<LoadedTranslation[]> {
    const { raw, entities } = await query.getRawAndEntities<{ t_id: number; t_last_change: string | null }>();
    const lastChanges = new Map(raw.map((row) => [Number(row.t_id), row.t_last_change]));
    return entities.map((translation) => ({ translation, lastChange: lastChanges.get(translation.id) ?? null }));
  }
}

/**
 * Weblate filters the languages a component can get by its language_regex (`re.match`), with the scanner's
 * linear-time engine: the pattern is user input (issue 10 item 8).
 */
function matchesLanguageRegex(pattern: string, code: string): boolean {
  if (pattern === '') return true;
  try {
    return compileLanguageRegex(pattern).test(code);
  } catch {
    return true;
  }
}

/** The new translation's units: one per source unit, same identity and position, untranslated (state 0). */
async function copySourceUnits(manager: EntityManager, translationId: number, componentId: number): Promise<void> {
  await manager.query(
    `INSERT INTO units (translation_id, source_unit_id, id_hash, content_hash, context, source, target, state, previous_source,
                        location, note, flags, position, num_words, num_chars, priority, file_location)
     SELECT $1, su.id, su.id_hash, su.content_hash, su.context, su.source, '', 0, '', su.location, su.note, su.flags,
            su.position, su.num_words, su.num_chars, su.priority, su.file_location
       FROM units su JOIN translations st ON st.id = su.translation_id
      WHERE st.component_id = $2 AND st.is_source
      ORDER BY su.position, su.id`,
    [translationId, componentId],
  );
}
