import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { LARGE_PAGINATION, parsePageRequest } from '../../common/pagination/page-params';
import { AcceptSuggestionBody, DeleteSuggestionBody, VoteSuggestionBody } from './dto/suggestion-bodies';
import { SuggestionsService } from './suggestions.service';
import { SuggestionAcceptResponse, SuggestionResponse, SuggestionVoteResponse, toSuggestionResponse } from './suggestion.response';
import { toVoteResponse } from './suggestion-outcome';
import { ValidatedBody } from '../../common/http/validation';

/** `/api/suggestions/` (Weblate 2026.8; checks-suggestions-search.md §5.9). */
@ApiTags('suggestions')
@ApiExtraModels(SuggestionResponse)
@Controller('api/suggestions')
export class SuggestionsController {
  constructor(private readonly suggestions: SuggestionsService) {}

  /** LargePagination, newest first (weblate-api.md §3). */
  @Get()
  @ApiOperation({ operationId: 'listSuggestions', summary: 'List the suggestions the caller may see, newest first' })
  @ApiQuery({ name: 'page', required: false, description: '1-based page number or `last`', schema: { type: 'string' } })
  @ApiQuery({ name: 'page_size', required: false, description: 'Items per page (default 200, max 10000)', schema: { type: 'integer' } })
  @ApiPaginatedResponse(SuggestionResponse)
  async list(@Ctx() ctx: RequestContext): Promise<ListEnvelope<SuggestionResponse>> {
    const { page, count, rows } = await this.suggestions.listAll(ctx, parsePageRequest(ctx.query, LARGE_PAGINATION));
    return listEnvelope(ctx, page, count, rows.map((row) => toSuggestionResponse(row, ctx.links)));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getSuggestion', summary: 'Get a suggestion' })
  @ApiOkResponse({ type: SuggestionResponse })
  async detail(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<SuggestionResponse> {
    return toSuggestionResponse(await this.suggestions.get(ctx, id), ctx.links);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteSuggestion', summary: 'Reject (delete) a suggestion; authors may delete their own' })
  @ApiBody({ type: DeleteSuggestionBody, required: false })
  @ApiNoContentResponse()
  async remove(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() body: unknown): Promise<void> {
    await this.suggestions.remove(ctx, id, body);
  }

  @Post(':id/accept')
  @HttpCode(200)
  @ApiOperation({ operationId: 'acceptSuggestion', summary: 'Accept a suggestion: translate its unit with it' })
  @ApiBody({ type: AcceptSuggestionBody, required: false })
  @ApiOkResponse({ type: SuggestionAcceptResponse })
  async accept(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() body: unknown): Promise<SuggestionAcceptResponse> {
    await this.suggestions.accept(ctx, id, body);
    return { result: 'accepted' };
  }

  @Post(':id/vote')
  @HttpCode(200)
  @ApiOperation({ operationId: 'voteSuggestion', summary: 'Vote for (+1) or against (−1) a suggestion' })
  @ApiBody({ type: VoteSuggestionBody })
  @ApiOkResponse({ type: SuggestionVoteResponse })
  async vote(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() body: unknown): Promise<SuggestionVoteResponse> {
    return toVoteResponse(await this.suggestions.vote(ctx, id, body), ctx.links);
  }
}
