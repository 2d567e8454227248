import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CheckOrder } from '../../common/auth/check-order';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses';
import { AddonResponse, toAddonResponse } from './addon.response';
import { AddonsService } from './addons.service';
import { AddonCreateDto } from './dto/addon-write.dto';
import { ValidatedBody } from '../../common/http/validation';

/** Installing add-ons: `POST /api/components/<p>/<c>/addons/` (4.4.1+) and `POST /api/projects/<p>/addons/` (5.x). */
@ApiTags('addons')
@Controller('api')
export class ScopeAddonsController {
  constructor(private readonly addons: AddonsService) {}

  @Post('components/:project/:component/addons')
  @HttpCode(201)
  @CheckOrder({ object: 'scope', permission: 'component.edit', message: 'Can not create addon' })
  @ApiOperation({ operationId: 'createComponentAddon', summary: 'Install an add-on on a component' })
  @ApiBody({ type: AddonCreateDto })
  @ApiCreatedResponse({ type: AddonResponse })
  @ApiErrorResponses(400)
  async createOnComponent(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @ValidatedBody() body: unknown,
  ): Promise<AddonResponse> {
    return toAddonResponse(await this.addons.create(ctx, { project, component }, body), ctx.links);
  }

  @Post('projects/:project/addons')
  @HttpCode(201)
  @CheckOrder({ object: 'scope', permission: 'project.edit', message: 'Can not create addon' })
  @ApiOperation({ operationId: 'createProjectAddon', summary: 'Install a project-wide add-on' })
  @ApiBody({ type: AddonCreateDto })
  @ApiCreatedResponse({ type: AddonResponse })
  @ApiErrorResponses(400)
  async createOnProject(@Ctx() ctx: RequestContext, @Param('project') project: string, @ValidatedBody() body: unknown): Promise<AddonResponse> {
    return toAddonResponse(await this.addons.create(ctx, { project }, body), ctx.links);
  }
}
