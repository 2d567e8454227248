import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Put } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiPreconditionFailedResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { conditionalWrite } from '../../common/http/preconditions';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { LARGE_PAGINATION, parsePageRequest } from '../../common/pagination/page-params';
import { UnitWriteBody } from './dto/unit-bodies';
import { UnitEditService } from './unit-edit.service';
import { toUnitResponse, UnitResponse, UnitWriteResponse } from './unit.response';
import { UnitsReadService } from './units-read.service';

const IF_MATCH_HEADER = { name: 'If-Match', required: false, description: 'ETag of an earlier GET; 412 when the unit changed since' };

/** `/api/units/` (weblate-api.md §5.9). */
@ApiTags('units')
@ApiExtraModels(UnitResponse)
@Controller('api/units')
export class UnitsController {
  constructor(
    private readonly units: UnitsReadService,
    private readonly editor: UnitEditService,
  ) {}

  /** LargePagination: 200 per page by default, at most 10000 (weblate-api.md §3). */
  @Get()
  @ApiOperation({ operationId: 'listUnits', summary: 'List units (strings) of every translation' })
  @ApiQuery({ name: 'page', required: false, description: '1-based page number or `last`', schema: { type: 'string' } })
  @ApiQuery({ name: 'page_size', required: false, description: 'Items per page (default 200, max 10000)', schema: { type: 'integer' } })
  @ApiQuery({ name: 'q', required: false, description: 'Search query (a subset of Weblate\'s search language)' })
  @ApiPaginatedResponse(UnitResponse)
  async list(@Ctx() ctx: RequestContext): Promise<ListEnvelope<UnitResponse>> {
    const { page, count, rows } = await this.units.listAll(ctx.query, parsePageRequest(ctx.query, LARGE_PAGINATION), ctx.caller);
    return listEnvelope(ctx, page, count, rows.map((row) => toUnitResponse(row, ctx.links)));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getUnit', summary: 'Get a unit (string)' })
  @ApiOkResponse({ type: UnitResponse })
  async detail(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<UnitResponse> {
    return toUnitResponse(await this.units.get(id), ctx.links);
  }

  @Put(':id')
  @ApiOperation({ operationId: 'replaceUnit', summary: 'Replace the translation of a unit' })
  @ApiBody({ type: UnitWriteBody })
  @ApiOkResponse({ type: UnitWriteResponse })
  @ApiHeader(IF_MATCH_HEADER)
  @ApiPreconditionFailedResponse({ description: 'If-Match does not match the current ETag' })
  async replace(@Ctx() ctx: RequestContext, @Param('id') id: string, @Body() body: unknown, @Headers('if-match') ifMatch?: string): Promise<UnitWriteResponse> {
    return this.conditional(ctx, id, ifMatch, () => this.editor.update(ctx, id, body));
  }

  @Patch(':id')
  @ApiOperation({ operationId: 'updateUnit', summary: 'Translate a unit (partial update: target, state, …)' })
  @ApiBody({ type: UnitWriteBody })
  @ApiOkResponse({ type: UnitWriteResponse })
  @ApiHeader(IF_MATCH_HEADER)
  @ApiPreconditionFailedResponse({ description: 'If-Match does not match the current ETag' })
  async update(@Ctx() ctx: RequestContext, @Param('id') id: string, @Body() body: unknown, @Headers('if-match') ifMatch?: string): Promise<UnitWriteResponse> {
    return this.conditional(ctx, id, ifMatch, () => this.editor.update(ctx, id, body));
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'deleteUnit', summary: 'Delete a unit (string) from a monolingual translation' })
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiHeader(IF_MATCH_HEADER)
  @ApiPreconditionFailedResponse({ description: 'If-Match does not match the current ETag' })
  async remove(@Ctx() ctx: RequestContext, @Param('id') id: string, @Headers('if-match') ifMatch?: string): Promise<void> {
    await this.conditional(ctx, id, ifMatch, () => this.editor.remove(ctx, id));
  }

  /** If-Match compares with the ETag of this unit's GET representation (preconditions.ts). */
  private conditional<T>(ctx: RequestContext, id: string, ifMatch: string | undefined, write: () => Promise<T>): Promise<T> {
    return conditionalWrite(`unit:${id}`, ifMatch, () => this.detail(ctx, id), write);
  }
}
