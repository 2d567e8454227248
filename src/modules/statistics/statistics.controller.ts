import { ReadWithAccess } from '../../common/auth/read-with-access';
import { Controller, Get, Param } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { pathOf } from '../../common/links/link-builder';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import {
  NamedStatisticsResponse,
  ProjectLanguageStatisticsResponse,
  toNamedStatistics,
  toProjectLanguageStatistics,
  toTranslationStatistics,
  TranslationStatisticsResponse,
} from './statistics.response';
import { StatisticsService, TRANSLATION_STATISTICS_READ, TranslationStatisticsRow } from './statistics.service';

/**
 * Every `/statistics/` route and `/api/projects/<p>/languages/` (weblate-api.md §5.5–§5.8, §6.9). The `url`
 * and `translate_url` of a statistics object are web links (§1.2), built from the site URL.
 */
@ApiTags('statistics')
@ApiExtraModels(TranslationStatisticsResponse)
@Controller('api')
export class StatisticsController {
  constructor(private readonly statistics: StatisticsService) {}

  @Get('translations/:project/:component/:language/statistics')
  @ReadWithAccess(TRANSLATION_STATISTICS_READ)
  @ApiOperation({ operationId: 'getTranslationStatistics', summary: 'Get the statistics of a translation' })
  @ApiOkResponse({ type: TranslationStatisticsResponse })
  async translation(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
  ): Promise<TranslationStatisticsResponse> {
    return translationStatistics(ctx, project, component, await this.statistics.forTranslation(project, component, language, ctx.prefetched));
  }

  /** A paginated list of per-translation statistics objects, ordered by translation id (§5.7). */
  @Get('components/:project/:component/statistics')
  @ApiOperation({ operationId: 'listComponentStatistics', summary: 'List the statistics of every translation of a component' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(TranslationStatisticsResponse)
  async component(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
  ): Promise<ListEnvelope<TranslationStatisticsResponse>> {
    const result = await this.statistics.forComponent(project, component, parsePageRequest(ctx.query));
    const items = result.items.map((row) => translationStatistics(ctx, result.projectSlug, result.componentSlug, row));
    return listEnvelope(ctx, result.page, result.count, items);
  }

  @Get('projects/:project/statistics')
  @ApiOperation({ operationId: 'getProjectStatistics', summary: 'Get the statistics of a project' })
  @ApiOkResponse({ type: NamedStatisticsResponse })
  async project(@Ctx() ctx: RequestContext, @Param('project') slug: string): Promise<NamedStatisticsResponse> {
    const { project, counters } = await this.statistics.forProject(slug, ctx.caller);
    return toNamedStatistics(counters, project.name, ctx.links.web(pathOf('projects', project.slug)));
  }

  @Get('languages/:code/statistics')
  @ApiOperation({ operationId: 'getLanguageStatistics', summary: 'Get the statistics of a language' })
  @ApiOkResponse({ type: NamedStatisticsResponse })
  async language(@Ctx() ctx: RequestContext, @Param('code') code: string): Promise<NamedStatisticsResponse> {
    const { language, counters } = await this.statistics.forLanguage(ctx, code);
    return toNamedStatistics(counters, language.name, ctx.links.web(pathOf('languages', language.code)));
  }

  /** A plain JSON array, not paginated (weblate-api.md §3, §5.6). */
  @Get('projects/:project/languages')
  @ApiOperation({ operationId: 'listProjectLanguageStatistics', summary: 'List the statistics of each language of a project' })
  @ApiOkResponse({ type: [ProjectLanguageStatisticsResponse] })
  async projectLanguages(@Ctx() ctx: RequestContext, @Param('project') slug: string): Promise<ProjectLanguageStatisticsResponse[]> {
    const rows = await this.statistics.projectLanguages(slug, ctx.caller);
    return rows.map((row) => toProjectLanguageStatistics(row.counters, row));
  }
}

function translationStatistics(ctx: RequestContext, project: string, component: string, row: TranslationStatisticsRow): TranslationStatisticsResponse {
  return toTranslationStatistics(row.counters, {
    code: row.code,
    name: row.name,
    webUrl: ctx.links.web(pathOf('projects', project, component, row.code)),
    translateUrl: ctx.links.web(pathOf('translate', project, component, row.code)),
    lastAuthor: row.lastAuthor,
  });
}
