import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { CommentResponse, toCommentResponse } from './comment.response';
import { CommentsService } from './comments.service';
import { NewCommentBody } from './dto/comment-bodies';
import { ValidatedBody } from '../../common/http/validation';

/**
 * `/api/units/{id}/comments/` (Weblate 5.12+/5.15+, checks-suggestions-search.md §6.5), and Glossa's own
 * resolve and delete routes under it (Weblate offers those only in its web interface).
 */
@ApiTags('comments')
@ApiExtraModels(CommentResponse)
@Controller('api/units/:id/comments')
export class UnitCommentsController {
  constructor(private readonly comments: CommentsService) {}

  @Get()
  @ApiOperation({ operationId: 'listUnitComments', summary: 'List the comments stored on a unit (resolved included), by id' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(CommentResponse)
  async list(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<ListEnvelope<CommentResponse>> {
    const { page, count, rows } = await this.comments.list(ctx, id, parsePageRequest(ctx.query));
    return listEnvelope(ctx, page, count, rows.map((row) => toCommentResponse(row, ctx.links)));
  }

  @Post()
  @ApiOperation({ operationId: 'createUnitComment', summary: 'Comment on a unit (translation, global or report scope)' })
  @ApiBody({ type: NewCommentBody })
  @ApiCreatedResponse({ type: CommentResponse })
  async add(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() body: unknown): Promise<CommentResponse> {
    return toCommentResponse(await this.comments.add(ctx, id, body), ctx.links);
  }

  @Post(':comment/resolve')
  @HttpCode(200)
  @ApiOperation({ operationId: 'resolveUnitComment', summary: 'Resolve a comment stored on this unit (Glossa extension)' })
  @ApiOkResponse({ type: CommentResponse })
  async resolve(@Ctx() ctx: RequestContext, @Param('id') id: string, @Param('comment') comment: string): Promise<CommentResponse> {
    return toCommentResponse(await this.comments.resolve(ctx, id, comment), ctx.links);
  }

  @Delete(':comment')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteUnitComment', summary: 'Delete a comment stored on this unit (Glossa extension)' })
  @ApiNoContentResponse()
  async remove(@Ctx() ctx: RequestContext, @Param('id') id: string, @Param('comment') comment: string): Promise<void> {
    await this.comments.remove(ctx, id, comment);
  }
}
