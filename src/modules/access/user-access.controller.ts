import { Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { toUserResponse, UserResponse } from '../users/user.response';
import { UserGroupDto, UserTokenResponse } from './dto/access-write.dto';
import { UserAccessService } from './user-access.service';
import { CheckOrder } from '../../common/auth/check-order';
import { ValidatedBody } from '../../common/http/validation';

/** Team membership and API keys of a user (weblate-api.md §5.2; the token route is Glossa's own). */
@ApiTags('users')
@Controller('api/users/:username')
export class UserAccessController {
  constructor(private readonly access: UserAccessService) {}

  @Post('groups')
  @HttpCode(200)
  @CheckOrder({ global: 'user.edit', object: 'user', message: 'Can not manage Users' })
  @ApiOperation({ operationId: 'addUserGroup', summary: 'Add the user to a team (user.edit; non-superusers: teams within their reach, never a superuser)' })
  @ApiOkResponse({ type: UserResponse })
  @ApiBody({ type: UserGroupDto })
  async addGroup(@Ctx() ctx: RequestContext, @Param('username') username: string, @ValidatedBody() body: unknown): Promise<UserResponse> {
    const { user, teamIds } = await this.access.setMembership(ctx, username, body, true);
    return toUserResponse(user, teamIds, ctx.links);
  }

  @Delete('groups')
  @HttpCode(200)
  @CheckOrder({ global: 'user.edit', object: 'user', message: 'Can not manage Users' })
  @ApiOperation({ operationId: 'removeUserGroup', summary: 'Remove the user from a team (user.edit; non-superusers: teams within their reach, never a superuser)' })
  @ApiOkResponse({ type: UserResponse })
  @ApiBody({ type: UserGroupDto })
  async removeGroup(@Ctx() ctx: RequestContext, @Param('username') username: string, @ValidatedBody() body: unknown): Promise<UserResponse> {
    const { user, teamIds } = await this.access.setMembership(ctx, username, body, false);
    return toUserResponse(user, teamIds, ctx.links);
  }

  @Post('token')
  @CheckOrder({ global: 'user.edit', object: 'user', message: 'Can not manage Users' })
  @ApiOperation({
    operationId: 'issueUserToken',
    summary: 'Issue a new API key for the user (superusers: anyone; user.edit holders: themselves only)',
    description: 'Glossa-specific (Weblate 4.x has no REST route for this). Replaces the user’s previous key; the key is shown only in this answer and stored as a SHA-256 digest.',
  })
  @ApiCreatedResponse({ type: UserTokenResponse })
  async issueToken(@Ctx() ctx: RequestContext, @Param('username') username: string): Promise<UserTokenResponse> {
    return { key: await this.access.issueToken(ctx, username) };
  }
}
