import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Response } from 'express';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { CreateUserDto, UpdateUserDto } from './dto/user-write.dto';
import { BasicUserResponse, toBasicUserResponse, toUserResponse, UserResponse, UserStatisticsResponse } from './user.response';
import type { User } from './user.entity';
import { UsersService } from './users.service';
import { CheckOrder } from '../../common/auth/check-order';
import { ValidatedBody } from '../../common/http/validation';

/** Full object for user administrators, basic one for everybody else ([4.x] weblate-api.md §5.2, §6.7). */
const EITHER_USER_SCHEMA = { oneOf: [{ $ref: getSchemaPath(UserResponse) }, { $ref: getSchemaPath(BasicUserResponse) }] };

@ApiTags('users')
@ApiExtraModels(UserResponse, BasicUserResponse)
@Controller('api/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ operationId: 'listUsers', summary: 'List users' })
  @ApiPagingQuery()
  @ApiQuery({ name: 'username', required: false, description: 'Usernames starting with this (case-sensitive)' })
  @ApiQuery({ name: 'id', required: false, schema: { type: 'integer' } })
  @ApiQuery({ name: 'is_active', required: false, schema: { type: 'boolean' } })
  @ApiOkResponse({
    description: 'List envelope of users: full objects for superusers, {full_name, username} for everybody else',
    schema: {
      type: 'object',
      required: ['count', 'next', 'previous', 'results'],
      properties: {
        count: { type: 'integer' },
        next: { type: 'string', format: 'uri', nullable: true },
        previous: { type: 'string', format: 'uri', nullable: true },
        results: { type: 'array', items: EITHER_USER_SCHEMA },
      },
    },
  })
  async list(@Ctx() ctx: RequestContext): Promise<ListEnvelope<UserResponse | BasicUserResponse>> {
    const filters = this.users.parseFilters(ctx.query);
    const { page, count, items } = await this.users.list(parsePageRequest(ctx.query), filters);
    const teams = ctx.isSuperuser ? await this.users.teamIds(items) : new Map<number, number[]>();
    return listEnvelope(ctx, page, count, items.map((user) => this.present(ctx, user, teams.get(user.id) ?? [])));
  }

  @Post()
  @CheckOrder({ global: 'user.edit', message: 'Can not manage Users' })
  @ApiOperation({ operationId: 'createUser', summary: 'Create a user' })
  @ApiCreatedResponse({ type: UserResponse })
  async create(@Ctx() ctx: RequestContext, @ValidatedBody() dto: CreateUserDto, @Res({ passthrough: true }) res: Response): Promise<UserResponse> {
    const body = await this.full(ctx, await this.users.create(ctx, dto));
    res.setHeader('Location', body.url);
    return body;
  }

  @Get(':username')
  @ApiOperation({ operationId: 'getUser', summary: 'Get a user' })
  @ApiOkResponse({ schema: EITHER_USER_SCHEMA })
  async detail(@Ctx() ctx: RequestContext, @Param('username') username: string): Promise<UserResponse | BasicUserResponse> {
    const user = await this.users.getByUsername(username);
    return this.present(ctx, user, ctx.isSuperuser ? ((await this.users.teamIds([user])).get(user.id) ?? []) : []);
  }

  @Put(':username')
  @CheckOrder({ global: 'user.edit', object: 'user', message: 'Can not manage Users' })
  @ApiOperation({ operationId: 'replaceUser', summary: 'Replace a user' })
  @ApiOkResponse({ type: UserResponse })
  async replace(@Ctx() ctx: RequestContext, @Param('username') username: string, @ValidatedBody() dto: CreateUserDto): Promise<UserResponse> {
    return this.full(ctx, await this.users.update(ctx, username, dto));
  }

  @Patch(':username')
  @CheckOrder({ global: 'user.edit', object: 'user', message: 'Can not manage Users' })
  @ApiOperation({ operationId: 'updateUser', summary: 'Update a user (partial)' })
  @ApiOkResponse({ type: UserResponse })
  async update(@Ctx() ctx: RequestContext, @Param('username') username: string, @ValidatedBody() dto: UpdateUserDto): Promise<UserResponse> {
    return this.full(ctx, await this.users.update(ctx, username, dto));
  }

  /** Deactivates and anonymises the user; the row stays for the history (weblate-api.md §5.2). */
  @Delete(':username')
  @CheckOrder({ global: 'user.edit', object: 'user', message: 'Can not manage Users' })
  @ApiOperation({ operationId: 'deleteUser', summary: 'Deactivate a user' })
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Ctx() ctx: RequestContext, @Param('username') username: string): Promise<void> {
    await this.users.remove(ctx, username);
  }

  @Get(':username/statistics')
  @ApiOperation({ operationId: 'getUserStatistics', summary: 'Get the statistics of a user' })
  @ApiOkResponse({ type: UserStatisticsResponse })
  async statistics(@Param('username') username: string): Promise<UserStatisticsResponse> {
    return this.users.statistics(username);
  }

  private present(ctx: RequestContext, user: User, teamIds: readonly number[]): UserResponse | BasicUserResponse {
    return ctx.isSuperuser ? toUserResponse(user, teamIds, ctx.links) : toBasicUserResponse(user);
  }

  private async full(ctx: RequestContext, user: User): Promise<UserResponse> {
    return toUserResponse(user, (await this.users.teamIds([user])).get(user.id) ?? [], ctx.links);
  }
}
