import { Controller, Get, Param } from '@nestjs/common';
import { ApiExtension, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { ComponentAlertResponse, toComponentAlertResponse } from './component-alert.response';
import { ComponentAlertsService } from './component-alerts.service';

/**
 * `…/alerts/` of a component: a Glossa extension. Weblate 4.18 has no alerts API (weblate-api.md lists none;
 * its alerts show in the web UI only), so translation files that fail to import would be visible to API
 * clients only in task logs; here they are listed as Weblate's Alert model holds them.
 */
@ApiTags('components')
@Controller('api/components/:project/:component/alerts')
export class ComponentAlertsController {
  constructor(private readonly alerts: ComponentAlertsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listComponentAlerts',
    summary: 'List the alerts of a component (Glossa extension)',
    description:
      'Not in Weblate’s API. Alerts as Weblate’s Alert model holds them; `ParseError` lists the translation files the last scan could not import, with line and message, and goes away once they import cleanly. Visible to anyone who can see the component.',
  })
  // Marks the operation as Glossa's own, for clients that keep to Weblate's API.
  @ApiExtension('x-glossa-extension', true)
  @ApiPagingQuery()
  @ApiPaginatedResponse(ComponentAlertResponse)
  async list(@Ctx() ctx: RequestContext, @Param('project') project: string, @Param('component') component: string): Promise<ListEnvelope<ComponentAlertResponse>> {
    const { page, count, items } = await this.alerts.list(project, component, parsePageRequest(ctx.query));
    return listEnvelope(ctx, page, count, items.map(toComponentAlertResponse));
  }
}
