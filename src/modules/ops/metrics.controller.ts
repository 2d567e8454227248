import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { notAuthenticated } from '../../common/http/api-errors';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses';
import { ApiMetricsResponse } from './metrics.response';
import { OpsMetricsService } from './ops-metrics.service';

/** Weblate's `/api/metrics/`: authenticated callers only, 401 for anonymous ones (weblate-api.md §5.15). */
@ApiTags('metrics')
@Controller('api/metrics')
export class MetricsController {
  constructor(private readonly metrics: OpsMetricsService) {}

  @Get()
  @ApiOperation({ operationId: 'getMetrics', summary: 'Site-wide counts (authenticated callers only)' })
  @ApiOkResponse({ type: ApiMetricsResponse, description: 'Counts in Weblate 4.x key order (weblate-api.md §6.13)' })
  @ApiErrorResponses(401)
  async metricsSummary(@Ctx() ctx: RequestContext): Promise<ApiMetricsResponse> {
    if (ctx.caller === null) throw notAuthenticated();
    return this.metrics.metrics();
  }
}
