import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, Repository, SelectQueryBuilder } from 'typeorm';
import { visibleComponentIdsSql } from '../../common/auth/access-sql';
import { ApiValidationError, badRequest, notFound, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { CreateLanguageDto, UpdateLanguageDto } from './dto/language-write.dto';
import { Language } from './language.entity';
import { pluralTypeForFormula } from './plural-type';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const DUPLICATE_CODE = 'Language with this Language code already exists.';

@Injectable()
export class LanguagesService {
  constructor(@InjectRepository(Language) private readonly languages: Repository<Language>) {}

  /**
   * Languages ordered by id (weblate-api.md §5.5). Without `language.edit` (until teams exist: without
   * superuser rights) only languages used by at least one translation are listed, as Weblate 4.x does
   * (Language.objects.have_translation()); the catalog holds ~700 languages nobody translates into.
   * One count and one page query.
   */
  async list(ctx: RequestContext, pageRequest: PageRequest): Promise<{ page: ResolvedPage; count: number; items: Language[] }> {
    const count = await this.visible(ctx).getCount();
    const page = resolvePage(pageRequest, count);
    const items = await this.visible(ctx).orderBy('language.id', 'ASC').offset(page.offset).limit(page.size).getMany();
    return { page, count, items };
  }

  /** A language the caller may see; unused languages are 404 for non-administrators (§5.5). */
  async getByCode(ctx: RequestContext, code: string): Promise<Language> {
    const language = await this.visible(ctx).andWhere('language.code = :code', { code }).getOne();
    if (!language) throw notFound();
    return language;
  }

  async create(ctx: RequestContext, dto: CreateLanguageDto): Promise<Language> {
    this.assertCanManage(ctx);
    await this.assertCodeFree(dto.code);
    const language = this.languages.create({
      code: dto.code,
      name: dto.name,
      direction: dto.direction ?? 'ltr',
      population: String(dto.population ?? 0),
      aliases: [],
      pluralNumber: dto.plural.number,
      pluralFormula: dto.plural.formula,
    });
    return this.save(language);
  }

  /** PUT (full) and PATCH (partial) alike; the plural type is recomputed from the resulting formula. */
  async update(ctx: RequestContext, code: string, dto: UpdateLanguageDto): Promise<Language> {
    // Weblate checks `language.edit` before looking the language up, so non-administrators get 403.
    this.assertCanManage(ctx);
    const language = await this.getByCode(ctx, code);
    if (dto.code !== undefined && dto.code !== language.code) await this.assertCodeFree(dto.code);
    if (dto.code !== undefined) language.code = dto.code;
    if (dto.name !== undefined) language.name = dto.name;
    if (dto.direction !== undefined) language.direction = dto.direction;
    if (dto.population !== undefined) language.population = String(dto.population);
    if (dto.plural?.number !== undefined) language.pluralNumber = dto.plural.number;
    if (dto.plural?.formula !== undefined) language.pluralFormula = dto.plural.formula;
    return this.save(language);
  }

  /**
   * Deletes an unused language. Weblate cascades a language delete to its translations and components;
   * here removing files and repositories is the sync layer's job, so a language still in use is refused
   * instead of silently orphaning them.
   */
  async remove(ctx: RequestContext, code: string): Promise<void> {
    this.assertCanManage(ctx);
    const language = await this.getByCode(ctx, code);
    try {
      await this.languages.delete({ id: language.id });
    } catch (error) {
      if (isDriverError(error, FOREIGN_KEY_VIOLATION)) throw badRequest('Can not delete a language that is used by translations or components.');
      throw error;
    }
  }

  private visible(ctx: RequestContext): SelectQueryBuilder<Language> {
    const query = this.languages.createQueryBuilder('language');
    if (ctx.isSuperuser) return query;
    // Languages with at least one translation the caller can see (weblate-api.md §2.6; src/common/auth/access-sql.ts).
    return query.where(`EXISTS (SELECT 1 FROM translations t WHERE t.language_id = language.id AND t.component_id IN (${visibleComponentIdsSql(ctx.caller)}))`);
  }

  /** Weblate's LanguageViewSet.perm_check (`language.edit`). */
  private assertCanManage(ctx: RequestContext): void {
    if (!ctx.can('language.edit')) throw permissionDenied('Can not manage languages');
  }

  private async assertCodeFree(code: string): Promise<void> {
    if (await this.languages.existsBy({ code })) throw new ApiValidationError({ code: [DUPLICATE_CODE] });
  }

  private async save(language: Language): Promise<Language> {
    language.pluralType = pluralTypeForFormula(language.code, language.pluralFormula);
    try {
      return await this.languages.save(language);
    } catch (error) {
      // A concurrent insert of the same code can still win the race.
      if (isDriverError(error, UNIQUE_VIOLATION)) throw new ApiValidationError({ code: [DUPLICATE_CODE] });
      throw error;
    }
  }
}

function isDriverError(error: unknown, code: string): boolean {
  return error instanceof QueryFailedError && (error.driverError as { code?: string }).code === code;
}
