import { ReadWithAccess } from '../../common/auth/read-with-access';
import { UNIT_SEARCH_DESCRIPTION } from './search/search-description';
import { Controller, Delete, Get, Headers, HttpCode, Param, Patch, Put, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBody, ApiExtraModels, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiPreconditionFailedResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { anyOf, CheckOrder } from '../../common/auth/check-order';
import { conditionalWrite } from '../../common/http/preconditions';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse } from '../../common/openapi/api-paginated-response';
import { listEnvelope, type RawListEnvelope } from '../../common/pagination/list-envelope';
import { LARGE_PAGINATION, parsePageRequest } from '../../common/pagination/page-params';
import { UnitWriteBody } from './dto/unit-bodies';
import { UnitEditService, type UnitWriteOutcome } from './unit-edit.service';
import type { RawJson } from '../../common/serialization/json-writer';
import { UnitResponse, UnitWriteResponse } from './unit.response';
import { UNIT_DETAIL_READ, UnitsReadService } from './units-read.service';
import { ValidatedBody } from '../../common/http/validation';

/**
 * A unit write translates (unit.edit) or edits the source string's properties (source.edit): without either
 * right on the unit it is refused before the body is read (DRF's order, check-order.ts). Weblate checks
 * unit.edit only after validating the target and state; its 403 for a caller with no right on the unit is
 * the same, only an invalid body now answers 403 instead of 400 to such a caller (issue 12 item 2). Which of
 * the two rights the body needs is checked by UnitEditService, with Weblate's messages.
 */
const UNIT_WRITE_ORDER = CheckOrder({ object: 'scope', permission: anyOf('unit.edit', 'source.edit') });

const IF_MATCH_HEADER = { name: 'If-Match', required: false, description: 'ETag of an earlier GET; 412 when the unit changed since' };

/**
 * Glossa extension: the automatic fixes Weblate applies before saving (checks-suggestions-search.md §4) are
 * named here when they changed the text, comma-separated (Weblate's editor shows "Following fixups were
 * applied"; its API says nothing). They are also recorded in the change's details as `fixups`.
 */
export const FIXUPS_HEADER = 'X-Glossa-Fixups';
const FIXUPS_RESPONSE_HEADER = { [FIXUPS_HEADER]: { description: 'Automatic fixes applied to the target (e.g. end-whitespace, zero-width-space), when any', schema: { type: 'string' } } };

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
  @ApiQuery({ name: 'q', required: false, description: UNIT_SEARCH_DESCRIPTION })
  @ApiPaginatedResponse(UnitResponse)
  async list(@Ctx() ctx: RequestContext): Promise<RawListEnvelope> {
    const { page, count, results } = await this.units.listAll(ctx.query, parsePageRequest(ctx.query, LARGE_PAGINATION), ctx.caller, ctx.links);
    return listEnvelope(ctx, page, count, results);
  }

  @Get(':id')
  @ReadWithAccess(UNIT_DETAIL_READ)
  @ApiOperation({ operationId: 'getUnit', summary: 'Get a unit (string)' })
  @ApiOkResponse({ type: UnitResponse })
  async detail(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<RawJson> {
    return this.units.get(id, ctx.links, ctx.prefetched);
  }

  @Put(':id')
  @UNIT_WRITE_ORDER
  @ApiOperation({ operationId: 'replaceUnit', summary: 'Replace the translation of a unit' })
  @ApiBody({ type: UnitWriteBody })
  @ApiOkResponse({ type: UnitWriteResponse, headers: FIXUPS_RESPONSE_HEADER })
  @ApiHeader(IF_MATCH_HEADER)
  @ApiPreconditionFailedResponse({ description: 'If-Match does not match the current ETag' })
  async replace(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() body: unknown, @Res({ passthrough: true }) res: Response, @Headers('if-match') ifMatch?: string): Promise<UnitWriteResponse> {
    return reportFixups(res, await this.conditional(ctx, id, ifMatch, () => this.editor.update(ctx, id, body)));
  }

  @Patch(':id')
  @UNIT_WRITE_ORDER
  @ApiOperation({ operationId: 'updateUnit', summary: 'Translate a unit (partial update: target, state, …)' })
  @ApiBody({ type: UnitWriteBody })
  @ApiOkResponse({ type: UnitWriteResponse, headers: FIXUPS_RESPONSE_HEADER })
  @ApiHeader(IF_MATCH_HEADER)
  @ApiPreconditionFailedResponse({ description: 'If-Match does not match the current ETag' })
  async update(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() body: unknown, @Res({ passthrough: true }) res: Response, @Headers('if-match') ifMatch?: string): Promise<UnitWriteResponse> {
    return reportFixups(res, await this.conditional(ctx, id, ifMatch, () => this.editor.update(ctx, id, body)));
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

function reportFixups(res: Response, outcome: UnitWriteOutcome): UnitWriteResponse {
  if (outcome.fixups.length > 0) res.setHeader(FIXUPS_HEADER, outcome.fixups.join(', '));
  return outcome.body;
}
