import { Controller, Get, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { NewSuggestionBody } from './dto/suggestion-bodies';
import { toVoteResponse } from './suggestion-outcome';
import { SuggestionResponse, SuggestionVoteResponse, toSuggestionResponse } from './suggestion.response';
import { SuggestionsService } from './suggestions.service';
import { ValidatedBody } from '../../common/http/validation';

/** `/api/units/{id}/suggestions/` (Weblate 2026.8; checks-suggestions-search.md §5.9): a unit's suggestions. */
@ApiTags('suggestions')
@ApiExtraModels(SuggestionResponse, SuggestionVoteResponse)
@Controller('api/units/:id/suggestions')
export class UnitSuggestionsController {
  constructor(private readonly suggestions: SuggestionsService) {}

  @Get()
  @ApiOperation({ operationId: 'listUnitSuggestions', summary: 'List the suggestions of a unit, newest first' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(SuggestionResponse)
  async list(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<ListEnvelope<SuggestionResponse>> {
    const { page, count, rows } = await this.suggestions.listForUnit(ctx, id, parsePageRequest(ctx.query));
    return listEnvelope(ctx, page, count, rows.map((row) => toSuggestionResponse(row, ctx.links)));
  }

  /** 201 with the new suggestion; 200 with a vote result when an identical one was upvoted or auto-accepted instead. */
  @Post()
  @ApiOperation({ operationId: 'createUnitSuggestion', summary: 'Suggest a translation for a unit' })
  @ApiBody({ type: NewSuggestionBody })
  @ApiCreatedResponse({ type: SuggestionResponse })
  @ApiOkResponse({ type: SuggestionVoteResponse, description: 'An identical suggestion was upvoted, or the suggestion was accepted by votes' })
  async add(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() body: unknown, @Res({ passthrough: true }) res: Response): Promise<SuggestionResponse | SuggestionVoteResponse> {
    const outcome = await this.suggestions.add(ctx, id, body);
    if (outcome.result === 'created') return toSuggestionResponse(outcome.row, ctx.links);
    res.status(200);
    return toVoteResponse(outcome, ctx.links);
  }
}
