import { UNIT_SEARCH_DESCRIPTION } from './search/search-description';
import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ReadWithAccess } from '../../common/auth/read-with-access';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, type RawListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { NewMonolingualUnitBody } from './dto/unit-bodies';
import { UnitAddService } from './unit-add.service';
import type { RawJson } from '../../common/serialization/json-writer';
import { UnitResponse } from './unit.response';
import { UNITS_PAGE_READ, UnitsReadService } from './units-read.service';
import { ValidatedBody } from '../../common/http/validation';

/** The units of one translation (weblate-api.md §5.8): list and add a string. */
@ApiTags('units')
@ApiExtraModels(UnitResponse)
@Controller('api/translations/:project/:component/:language/units')
export class TranslationUnitsController {
  constructor(
    private readonly units: UnitsReadService,
    private readonly adder: UnitAddService,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listTranslationUnits', summary: 'List the units (strings) of a translation' })
  @ApiPagingQuery()
  @ApiQuery({ name: 'q', required: false, description: UNIT_SEARCH_DESCRIPTION })
  @ApiPaginatedResponse(UnitResponse)
  @ReadWithAccess(UNITS_PAGE_READ)
  async list(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
  ): Promise<RawListEnvelope> {
    const { page, count, results, versions } = await this.units.listForTranslation(project, component, language, ctx.query, parsePageRequest(ctx.query), ctx.links, ctx.prefetched);
    // 304 before the page is written when the client holds the current tag (issue 5).
    if (versions) ctx.useVersionTag(versions);
    return listEnvelope(ctx, page, count, results);
  }

  /** Weblate answers 200 (not 201) with the new unit (weblate-api.md §10.1). */
  @Post()
  @ApiOperation({ operationId: 'createTranslationUnit', summary: 'Add a new string to a translation' })
  @HttpCode(200)
  @ApiBody({ type: NewMonolingualUnitBody })
  @ApiOkResponse({ type: UnitResponse })
  async add(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
    @ValidatedBody() body: unknown,
  ): Promise<RawJson> {
    const id = await this.adder.add(ctx, project, component, language, body);
    return this.units.get(id, ctx.links);
  }
}
