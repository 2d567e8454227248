import { applyDecorators, Controller, Get, Param } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { ChangeResponse, toChangeResponse } from './change.response';
import { ChangeScope, ChangesService } from './changes.service';

/** The filters every changes list takes (weblate-api.md §7.2). */
function ApiChangeFilters() {
  return applyDecorators(
    ApiPagingQuery(),
    ApiQuery({ name: 'user', required: false, description: 'Username of the acting user' }),
    ApiQuery({ name: 'action', required: false, isArray: true, type: Number, description: 'Action codes, repeatable (weblate-api.md §8.1)' }),
    ApiQuery({ name: 'timestamp_after', required: false, description: 'ISO 8601, inclusive' }),
    ApiQuery({ name: 'timestamp_before', required: false, description: 'ISO 8601, inclusive' }),
    ApiPaginatedResponse(ChangeResponse),
  );
}

/**
 * `/api/changes/` and the changes sub-lists of projects, components and translations. The sub-list routes live
 * here, in the child's module (architecture.md "Code layout").
 */
@ApiTags('changes')
@ApiExtraModels(ChangeResponse)
@Controller('api')
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  @Get('changes')
  @ApiOperation({ operationId: 'listChanges', summary: 'List changes' })
  @ApiChangeFilters()
  list(@Ctx() ctx: RequestContext): Promise<ListEnvelope<ChangeResponse>> {
    return this.page(ctx, { kind: 'all' });
  }

  @Get('changes/:id')
  @ApiOperation({ operationId: 'getChange', summary: 'Get a change' })
  @ApiOkResponse({ type: ChangeResponse })
  async detail(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<ChangeResponse> {
    return toChangeResponse(await this.changes.get(id), ctx.links);
  }

  @Get('projects/:project/changes')
  @ApiOperation({ operationId: 'listProjectChanges', summary: 'List the changes of a project' })
  @ApiChangeFilters()
  listForProject(@Ctx() ctx: RequestContext, @Param('project') projectSlug: string): Promise<ListEnvelope<ChangeResponse>> {
    return this.page(ctx, { kind: 'project', projectSlug });
  }

  @Get('components/:project/:component/changes')
  @ApiOperation({ operationId: 'listComponentChanges', summary: 'List the changes of a component' })
  @ApiChangeFilters()
  listForComponent(
    @Ctx() ctx: RequestContext,
    @Param('project') projectSlug: string,
    @Param('component') componentSlug: string,
  ): Promise<ListEnvelope<ChangeResponse>> {
    return this.page(ctx, { kind: 'component', projectSlug, componentSlug });
  }

  @Get('translations/:project/:component/:language/changes')
  @ApiOperation({ operationId: 'listTranslationChanges', summary: 'List the changes of a translation' })
  @ApiChangeFilters()
  listForTranslation(
    @Ctx() ctx: RequestContext,
    @Param('project') projectSlug: string,
    @Param('component') componentSlug: string,
    @Param('language') languageCode: string,
  ): Promise<ListEnvelope<ChangeResponse>> {
    return this.page(ctx, { kind: 'translation', projectSlug, componentSlug, languageCode });
  }

  private async page(ctx: RequestContext, scope: ChangeScope): Promise<ListEnvelope<ChangeResponse>> {
    const { page, count, rows } = await this.changes.list(scope, ctx.query, parsePageRequest(ctx.query), ctx.caller);
    return listEnvelope(ctx, page, count, rows.map((row) => toChangeResponse(row, ctx.links)));
  }
}
