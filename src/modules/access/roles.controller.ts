import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { RoleResponse, toRoleResponse } from './access.response';
import { AccessService } from './access.service';
import { CreateRoleDto, UpdateRoleDto } from './dto/access-write.dto';
import { CheckOrder } from '../../common/auth/check-order';
import { ValidatedBody } from '../../common/http/validation';

/** `/api/roles/` (weblate-api.md §5.4). */
@ApiTags('roles')
@ApiExtraModels(RoleResponse)
@Controller('api/roles')
export class RolesController {
  constructor(private readonly access: AccessService) {}

  @Get()
  @ApiOperation({ operationId: 'listRoles', summary: 'List roles (all with role.view, else those of the caller’s teams)' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(RoleResponse)
  async list(@Ctx() ctx: RequestContext): Promise<ListEnvelope<RoleResponse>> {
    const { page, count, items } = await this.access.listRoles(ctx, parsePageRequest(ctx.query));
    return listEnvelope(ctx, page, count, items.map((r) => toRoleResponse(r, ctx.links)));
  }

  @Post()
  @CheckOrder({ global: 'role.edit', message: 'Can not manage roles' })
  @ApiOperation({ operationId: 'createRole', summary: 'Create a role' })
  @ApiCreatedResponse({ type: RoleResponse })
  async create(@Ctx() ctx: RequestContext, @ValidatedBody() dto: CreateRoleDto, @Res({ passthrough: true }) res: Response): Promise<RoleResponse> {
    const body = toRoleResponse(await this.access.createRole(ctx, dto), ctx.links);
    res.setHeader('Location', body.url);
    return body;
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getRole', summary: 'Get a role' })
  @ApiOkResponse({ type: RoleResponse })
  async detail(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<RoleResponse> {
    return toRoleResponse(await this.access.getRole(ctx, id), ctx.links);
  }

  @Put(':id')
  @CheckOrder({ global: 'role.edit', object: 'role', message: 'Can not manage roles' })
  @ApiOperation({ operationId: 'replaceRole', summary: 'Replace a role (the permission set is replaced)' })
  @ApiOkResponse({ type: RoleResponse })
  async replace(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() dto: CreateRoleDto): Promise<RoleResponse> {
    return toRoleResponse(await this.access.updateRole(ctx, id, dto, true), ctx.links);
  }

  @Patch(':id')
  @CheckOrder({ global: 'role.edit', object: 'role', message: 'Can not manage roles' })
  @ApiOperation({ operationId: 'updateRole', summary: 'Update a role (the given permissions are added)' })
  @ApiOkResponse({ type: RoleResponse })
  async update(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() dto: UpdateRoleDto): Promise<RoleResponse> {
    return toRoleResponse(await this.access.updateRole(ctx, id, dto, false), ctx.links);
  }

  @Delete(':id')
  @HttpCode(204)
  @CheckOrder({ global: 'role.edit', object: 'role', message: 'Can not manage roles' })
  @ApiOperation({ operationId: 'deleteRole', summary: 'Delete a role' })
  @ApiNoContentResponse()
  async remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<void> {
    await this.access.deleteRole(ctx, id);
  }
}
