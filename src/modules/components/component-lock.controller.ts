import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest, resolvePage } from '../../common/pagination/page-params';
import { ProjectResponse } from '../projects/project.response';
import { ComponentsService } from './components.service';
import { ComponentLockRequestDto, ComponentLockResponse } from './dto/component-write.dto';
import { CheckOrder } from '../../common/auth/check-order';
import { ValidatedBody } from '../../common/http/validation';

/** `…/lock/` (weblate-api.md §5.7, §6.11, §10.6) and `…/links/` (§5.7) of a component. */
@ApiTags('components')
@ApiExtraModels(ProjectResponse)
@Controller('api/components/:project/:component')
export class ComponentLockController {
  constructor(private readonly components: ComponentsService) {}

  @Get('lock')
  @ApiOperation({ operationId: 'getComponentLock', summary: 'Get the lock state of a component' })
  @ApiOkResponse({ type: ComponentLockResponse })
  lockState(@Param('project') project: string, @Param('component') component: string): Promise<ComponentLockResponse> {
    return this.components.lockState(project, component);
  }

  @Post('lock')
  @CheckOrder({ object: 'scope', permission: 'component.lock' })
  @ApiOperation({ operationId: 'setComponentLock', summary: 'Lock or unlock a component' })
  @HttpCode(200)
  @ApiBody({ type: ComponentLockRequestDto })
  @ApiOkResponse({ type: ComponentLockResponse })
  async setLock(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @ValidatedBody() body: unknown,
  ): Promise<ComponentLockResponse> {
    return this.components.setLock(ctx, project, component, body);
  }

  /**
   * Projects the component is shared into. Glossa has no storage for component links (Weblate's
   * ComponentLink table), so nothing can be shared and the list is always empty; POST (sharing) is not
   * offered until that storage exists, which makes the route answer 405 to it.
   */
  @Get('links')
  @ApiOperation({ operationId: 'listComponentLinks', summary: 'List the projects a component is shared into' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(ProjectResponse)
  async links(@Ctx() ctx: RequestContext, @Param('project') project: string, @Param('component') component: string): Promise<ListEnvelope<ProjectResponse>> {
    await this.components.getBySlugs(project, component);
    const page = resolvePage(parsePageRequest(ctx.query), 0);
    return listEnvelope<ProjectResponse[]>(ctx, page, 0, []);
  }
}
