import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReadWithAccess } from '../../common/auth/read-with-access';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { TranslationResponse, toTranslationResponse } from './translation.response';
import { COMPONENT_TRANSLATIONS_READ, TRANSLATION_DETAIL_READ } from './translation-read.statements';
import { LoadedTranslation, TranslationsService } from './translations.service';
import { ValidatedBody } from '../../common/http/validation';

const toResponse = (ctx: RequestContext, item: LoadedTranslation, withComponent = true): TranslationResponse =>
  toTranslationResponse(item.translation, ctx.links, { lastChange: item.lastChange, withComponent });

/** Answer of POST `/api/components/<p>/<c>/translations/`: the new translation without `component` (§10.10). */
interface AddedTranslationResponse {
  data: TranslationResponse;
}

@ApiTags('translations')
@ApiExtraModels(TranslationResponse)
@Controller('api')
export class TranslationsController {
  constructor(private readonly translations: TranslationsService) {}

  @Get('translations')
  @ApiOperation({ operationId: 'listTranslations', summary: 'List translations' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(TranslationResponse)
  async list(@Ctx() ctx: RequestContext): Promise<ListEnvelope<TranslationResponse>> {
    const { page, count, items } = await this.translations.list(parsePageRequest(ctx.query), ctx.caller);
    return listEnvelope(ctx, page, count, items.map((item) => toResponse(ctx, item)));
  }

  @Get('translations/:project/:component/:language')
  @ReadWithAccess(TRANSLATION_DETAIL_READ)
  @ApiOperation({ operationId: 'getTranslation', summary: 'Get a translation' })
  @ApiOkResponse({ type: TranslationResponse })
  async detail(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
  ): Promise<TranslationResponse> {
    return toResponse(ctx, await this.translations.get(project, component, language, ctx.prefetched));
  }

  @Delete('translations/:project/:component/:language')
  @ApiOperation({ operationId: 'deleteTranslation', summary: 'Delete a translation' })
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
  ): Promise<void> {
    await this.translations.remove(ctx, project, component, language);
  }

  /** A component's translations, without the nested `component` (weblate-api.md §5.7). */
  @Get('components/:project/:component/translations')
  @ReadWithAccess(COMPONENT_TRANSLATIONS_READ)
  @ApiOperation({ operationId: 'listComponentTranslations', summary: 'List the translations of a component' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(TranslationResponse)
  async listForComponent(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
  ): Promise<ListEnvelope<TranslationResponse>> {
    const { page, count, items } = await this.translations.listForComponent(project, component, parsePageRequest(ctx.query), ctx.prefetched);
    return listEnvelope(ctx, page, count, items.map((item) => toResponse(ctx, item, false)));
  }

  @Post('components/:project/:component/translations')
  @ApiOperation({ operationId: 'createTranslation', summary: 'Add a language to a component (create a translation)' })
  @HttpCode(201)
  @ApiBody({ schema: { type: 'object', required: ['language_code'], properties: { language_code: { type: 'string' } } } })
  @ApiCreatedResponse({ schema: { type: 'object', properties: { data: { $ref: '#/components/schemas/TranslationResponse' } } } })
  async addLanguage(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @ValidatedBody() body: unknown,
  ): Promise<AddedTranslationResponse> {
    const added = await this.translations.addLanguage(ctx, project, component, body);
    return { data: toResponse(ctx, added, false) };
  }
}
