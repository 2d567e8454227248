import { Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest, resolvePage } from '../../common/pagination/page-params';
import { toUnitCheckResponse, UnitCheckResponse } from './check.response';
import { UnitChecksService } from './unit-checks.service';
import { ValidatedBody } from '../../common/http/validation';


/** Glossa's extension: the quality checks of a unit (checks-suggestions-search.md §3.5 — Weblate has no such endpoint). */
@ApiTags('units')
@Controller('api/units/:id/checks')
export class UnitChecksController {
  constructor(private readonly checks: UnitChecksService) {}

  @Get()
  @ApiOperation({ operationId: 'listUnitChecks', summary: 'Failing and dismissed quality checks of a unit (Glossa extension)' })
  @ApiPaginatedResponse(UnitCheckResponse)
  async list(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<ListEnvelope<UnitCheckResponse>> {
    const rows = await this.checks.list(id);
    // A unit has at most a few dozen checks: one page, the usual envelope.
    const page = resolvePage(parsePageRequest(ctx.query), rows.length);
    return listEnvelope(ctx, page, rows.length, rows.slice(page.offset, page.offset + page.size).map(toUnitCheckResponse));
  }

  @Patch(':name')
  @ApiOperation({ operationId: 'dismissUnitCheck', summary: 'Dismiss or restore a failing check (needs unit.check; enforced checks cannot be dismissed)' })
  @ApiBody({ schema: { type: 'object', required: ['dismissed'], properties: { dismissed: { type: 'boolean' } } } })
  @ApiOkResponse({ type: UnitCheckResponse })
  async dismiss(@Ctx() ctx: RequestContext, @Param('id') id: string, @Param('name') name: string, @ValidatedBody() body: unknown): Promise<UnitCheckResponse> {
    return toUnitCheckResponse(await this.checks.setDismissed(ctx, id, name, body));
  }
}

