import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { CreateLanguageDto, UpdateLanguageDto } from './dto/language-write.dto';
import { LanguageResponse, toLanguageResponse } from './language.response';
import { LanguagesService } from './languages.service';
import { CheckOrder } from '../../common/auth/check-order';
import { ValidatedBody } from '../../common/http/validation';

/** `/api/languages/` (weblate-api.md §5.5). `/statistics/` lives with the other statistics routes. */
@ApiTags('languages')
@ApiExtraModels(LanguageResponse)
@Controller('api/languages')
export class LanguagesController {
  constructor(private readonly languages: LanguagesService) {}

  @Get()
  @ApiOperation({ operationId: 'listLanguages', summary: 'List languages' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(LanguageResponse)
  async list(@Ctx() ctx: RequestContext): Promise<ListEnvelope<LanguageResponse>> {
    const { page, count, items } = await this.languages.list(ctx, parsePageRequest(ctx.query));
    return listEnvelope(ctx, page, count, items.map((language) => toLanguageResponse(language, ctx.links)));
  }

  @Post()
  @CheckOrder({ global: 'language.edit', message: 'Can not manage languages' })
  @ApiOperation({ operationId: 'createLanguage', summary: 'Create a language' })
  @ApiCreatedResponse({ type: LanguageResponse })
  async create(@Ctx() ctx: RequestContext, @ValidatedBody() dto: CreateLanguageDto, @Res({ passthrough: true }) res: Response): Promise<LanguageResponse> {
    const body = toLanguageResponse(await this.languages.create(ctx, dto), ctx.links);
    res.setHeader('Location', body.url);
    return body;
  }

  @Get(':code')
  @ApiOperation({ operationId: 'getLanguage', summary: 'Get a language' })
  @ApiOkResponse({ type: LanguageResponse })
  async detail(@Ctx() ctx: RequestContext, @Param('code') code: string): Promise<LanguageResponse> {
    return toLanguageResponse(await this.languages.getByCode(ctx, code), ctx.links);
  }

  @Put(':code')
  @CheckOrder({ global: 'language.edit', object: 'language', message: 'Can not manage languages' })
  @ApiOperation({ operationId: 'replaceLanguage', summary: 'Replace a language' })
  @ApiOkResponse({ type: LanguageResponse })
  async replace(@Ctx() ctx: RequestContext, @Param('code') code: string, @ValidatedBody() dto: CreateLanguageDto): Promise<LanguageResponse> {
    return toLanguageResponse(await this.languages.update(ctx, code, dto), ctx.links);
  }

  @Patch(':code')
  @CheckOrder({ global: 'language.edit', object: 'language', message: 'Can not manage languages' })
  @ApiOperation({ operationId: 'updateLanguage', summary: 'Update a language (partial)' })
  @ApiOkResponse({ type: LanguageResponse })
  async update(@Ctx() ctx: RequestContext, @Param('code') code: string, @ValidatedBody() dto: UpdateLanguageDto): Promise<LanguageResponse> {
    return toLanguageResponse(await this.languages.update(ctx, code, dto), ctx.links);
  }

  @Delete(':code')
  @CheckOrder({ global: 'language.edit', object: 'language', message: 'Can not manage languages' })
  @ApiOperation({ operationId: 'deleteLanguage', summary: 'Delete a language' })
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Ctx() ctx: RequestContext, @Param('code') code: string): Promise<void> {
    await this.languages.remove(ctx, code);
  }
}
