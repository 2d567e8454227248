import { ReadWithAccess } from '../../common/auth/read-with-access';
import { applyDecorators, Controller, Get, Param } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedOrCursorResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { CursorEnvelope, cursorEnvelope, listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { namesCursor } from './change-cursor';
import { ChangeResponse, toChangeResponse } from './change.response';
import { CHANGE_DETAIL_READ, ChangeScope, ChangesService } from './changes.service';

type ChangeList = ListEnvelope<ChangeResponse> | CursorEnvelope<ChangeResponse>;

/** The filters every changes list takes (weblate-api.md §7.2). */
function ApiChangeFilters() {
  return applyDecorators(
    ApiPagingQuery(),
    ApiQuery({ name: 'user', required: false, description: 'Username of the acting user' }),
    ApiQuery({ name: 'action', required: false, isArray: true, type: Number, description: 'Action codes, repeatable (weblate-api.md §8.1)' }),
    ApiQuery({ name: 'timestamp_after', required: false, description: 'ISO 8601, inclusive' }),
    ApiQuery({ name: 'timestamp_before', required: false, description: 'ISO 8601, inclusive' }),
    ApiQuery({
      name: 'cursor',
      required: false,
      description: 'Glossa: an opaque position (from `next` or an event id of the change stream); lists the changes after it in feed order (by writing transaction)',
      schema: { type: 'string' },
    }),
    ApiQuery({ name: 'id__gt', required: false, description: 'Glossa: lists the changes after this change in feed order (0: from the beginning)', schema: { type: 'integer' } }),
    ApiPaginatedOrCursorResponse(ChangeResponse),
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
  list(@Ctx() ctx: RequestContext): Promise<ChangeList> {
    return this.page(ctx, { kind: 'all' });
  }

  @Get('changes/:id')
  @ReadWithAccess(CHANGE_DETAIL_READ)
  @ApiOperation({ operationId: 'getChange', summary: 'Get a change' })
  @ApiOkResponse({ type: ChangeResponse })
  async detail(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<ChangeResponse> {
    return toChangeResponse(await this.changes.get(id, ctx.prefetched), ctx.links);
  }

  @Get('projects/:project/changes')
  @ApiOperation({ operationId: 'listProjectChanges', summary: 'List the changes of a project' })
  @ApiChangeFilters()
  listForProject(@Ctx() ctx: RequestContext, @Param('project') projectSlug: string): Promise<ChangeList> {
    return this.page(ctx, { kind: 'project', projectSlug });
  }

  @Get('components/:project/:component/changes')
  @ApiOperation({ operationId: 'listComponentChanges', summary: 'List the changes of a component' })
  @ApiChangeFilters()
  listForComponent(
    @Ctx() ctx: RequestContext,
    @Param('project') projectSlug: string,
    @Param('component') componentSlug: string,
  ): Promise<ChangeList> {
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
  ): Promise<ChangeList> {
    return this.page(ctx, { kind: 'translation', projectSlug, componentSlug, languageCode });
  }

  /** Page numbers as Weblate pages, or a cursor walk in feed order when the query names a cursor (change-cursor.ts). */
  private async page(ctx: RequestContext, scope: ChangeScope): Promise<ChangeList> {
    if (namesCursor(ctx.query)) {
      // `page` means nothing to a cursor (DRF's CursorPagination ignores it); only the size is read.
      const { size } = parsePageRequest({ page_size: ctx.query.page_size });
      const { rows, nextCursor } = await this.changes.listAfter(scope, ctx.query, size, ctx.caller);
      return cursorEnvelope(ctx, nextCursor, rows.map((row) => toChangeResponse(row, ctx.links)));
    }
    const { page, count, rows } = await this.changes.list(scope, ctx.query, parsePageRequest(ctx.query), ctx.caller);
    return listEnvelope(ctx, page, count, rows.map((row) => toChangeResponse(row, ctx.links)));
  }
}
