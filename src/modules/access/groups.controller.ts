import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { GroupResponse, toGroupResponse } from './access.response';
import { AccessService } from './access.service';
import { CreateGroupDto, GroupComponentDto, GroupLanguageDto, GroupProjectDto, GroupRoleDto, UpdateGroupDto } from './dto/access-write.dto';
import { CheckOrder } from '../../common/auth/check-order';
import { ValidatedBody } from '../../common/http/validation';

/** `/api/groups/` (weblate-api.md §5.3). */
@ApiTags('groups')
@ApiExtraModels(GroupResponse)
@Controller('api/groups')
export class GroupsController {
  constructor(private readonly access: AccessService) {}

  @Get()
  @ApiOperation({ operationId: 'listGroups', summary: 'List teams (all with group.view, else the caller’s own)' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(GroupResponse)
  async list(@Ctx() ctx: RequestContext): Promise<ListEnvelope<GroupResponse>> {
    const { page, count, items } = await this.access.listGroups(ctx, parsePageRequest(ctx.query));
    return listEnvelope(ctx, page, count, items.map((g) => toGroupResponse(g, ctx.links)));
  }

  @Post()
  @CheckOrder({ global: 'group.edit', message: 'Can not manage groups' })
  @ApiOperation({ operationId: 'createGroup', summary: 'Create a team' })
  @ApiCreatedResponse({ type: GroupResponse })
  async create(@Ctx() ctx: RequestContext, @ValidatedBody() dto: CreateGroupDto, @Res({ passthrough: true }) res: Response): Promise<GroupResponse> {
    const body = toGroupResponse(await this.access.createGroup(ctx, dto), ctx.links);
    res.setHeader('Location', body.url);
    return body;
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getGroup', summary: 'Get a team' })
  @ApiOkResponse({ type: GroupResponse })
  async detail(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<GroupResponse> {
    return toGroupResponse(await this.access.getGroup(ctx, id), ctx.links);
  }

  @Put(':id')
  @CheckOrder({ global: 'group.edit', object: 'group', message: 'Can not manage groups' })
  @ApiOperation({ operationId: 'replaceGroup', summary: 'Replace a team' })
  @ApiOkResponse({ type: GroupResponse })
  @ApiBody({ type: CreateGroupDto })
  async replace(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() body: unknown): Promise<GroupResponse> {
    return toGroupResponse(await this.access.updateGroup(ctx, id, body, CreateGroupDto), ctx.links);
  }

  @Patch(':id')
  @CheckOrder({ global: 'group.edit', object: 'group', message: 'Can not manage groups' })
  @ApiOperation({ operationId: 'updateGroup', summary: 'Update a team (partial)' })
  @ApiOkResponse({ type: GroupResponse })
  @ApiBody({ type: UpdateGroupDto })
  async update(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() body: unknown): Promise<GroupResponse> {
    return toGroupResponse(await this.access.updateGroup(ctx, id, body, UpdateGroupDto), ctx.links);
  }

  @Delete(':id')
  @HttpCode(204)
  @CheckOrder({ global: 'group.edit', object: 'group', message: 'Can not manage groups' })
  @ApiOperation({ operationId: 'deleteGroup', summary: 'Delete a team' })
  @ApiNoContentResponse()
  async remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<void> {
    await this.access.deleteGroup(ctx, id);
  }

  @Post(':id/roles')
  @HttpCode(200)
  @CheckOrder({ global: 'group.edit', object: 'group', message: 'Can not manage groups' })
  @ApiOperation({ operationId: 'addGroupRole', summary: 'Grant a role to a team' })
  @ApiOkResponse({ type: GroupResponse })
  async addRole(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() dto: GroupRoleDto): Promise<GroupResponse> {
    return toGroupResponse(await this.access.relate(ctx, id, 'roles', dto.role_id, true), ctx.links);
  }

  @Delete(':id/roles/:roleId')
  @HttpCode(204)
  @CheckOrder({ global: 'group.edit', object: 'group', message: 'Can not manage groups' })
  @ApiOperation({ operationId: 'removeGroupRole', summary: 'Remove a role from a team' })
  @ApiNoContentResponse()
  async removeRole(@Ctx() ctx: RequestContext, @Param('id') id: string, @Param('roleId') roleId: string): Promise<void> {
    await this.access.relate(ctx, id, 'roles', intOrZero(roleId), false);
  }

  @Post(':id/projects')
  @HttpCode(200)
  @CheckOrder({ global: 'group.edit', object: 'group', message: 'Can not manage groups' })
  @ApiOperation({ operationId: 'addGroupProject', summary: 'Select a project for a team' })
  @ApiOkResponse({ type: GroupResponse })
  async addProject(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() dto: GroupProjectDto): Promise<GroupResponse> {
    return toGroupResponse(await this.access.relate(ctx, id, 'projects', dto.project_id, true), ctx.links);
  }

  @Delete(':id/projects/:projectId')
  @HttpCode(204)
  @CheckOrder({ global: 'group.edit', object: 'group', message: 'Can not manage groups' })
  @ApiOperation({ operationId: 'removeGroupProject', summary: 'Unselect a project' })
  @ApiNoContentResponse()
  async removeProject(@Ctx() ctx: RequestContext, @Param('id') id: string, @Param('projectId') projectId: string): Promise<void> {
    await this.access.relate(ctx, id, 'projects', intOrZero(projectId), false);
  }

  @Post(':id/components')
  @HttpCode(200)
  @CheckOrder({ global: 'group.edit', object: 'group', message: 'Can not manage groups' })
  @ApiOperation({ operationId: 'addGroupComponent', summary: 'Select a component for a team' })
  @ApiOkResponse({ type: GroupResponse })
  async addComponent(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() dto: GroupComponentDto): Promise<GroupResponse> {
    return toGroupResponse(await this.access.relate(ctx, id, 'components', dto.component_id, true), ctx.links);
  }

  @Delete(':id/components/:componentId')
  @HttpCode(204)
  @CheckOrder({ global: 'group.edit', object: 'group', message: 'Can not manage groups' })
  @ApiOperation({ operationId: 'removeGroupComponent', summary: 'Unselect a component' })
  @ApiNoContentResponse()
  async removeComponent(@Ctx() ctx: RequestContext, @Param('id') id: string, @Param('componentId') componentId: string): Promise<void> {
    await this.access.relate(ctx, id, 'components', intOrZero(componentId), false);
  }

  @Post(':id/languages')
  @HttpCode(200)
  @CheckOrder({ global: 'group.edit', object: 'group', message: 'Can not manage groups' })
  @ApiOperation({ operationId: 'addGroupLanguage', summary: 'Select a language for a team' })
  @ApiOkResponse({ type: GroupResponse })
  async addLanguage(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() dto: GroupLanguageDto): Promise<GroupResponse> {
    return toGroupResponse(await this.access.relate(ctx, id, 'languages', dto.language_code, true), ctx.links);
  }

  @Delete(':id/languages/:code')
  @HttpCode(204)
  @CheckOrder({ global: 'group.edit', object: 'group', message: 'Can not manage groups' })
  @ApiOperation({ operationId: 'removeGroupLanguage', summary: 'Unselect a language' })
  @ApiNoContentResponse()
  async removeLanguage(@Ctx() ctx: RequestContext, @Param('id') id: string, @Param('code') code: string): Promise<void> {
    await this.access.relate(ctx, id, 'languages', code, false);
  }
}

function intOrZero(value: string): number {
  return /^\d{1,9}$/.test(value) ? Number(value) : 0;
}
