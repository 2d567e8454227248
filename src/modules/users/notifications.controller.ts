import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { CreateSubscriptionDto, UpdateSubscriptionDto } from './dto/subscription-write.dto';
import { NotificationsService } from './notifications.service';
import { SubscriptionResponse, toSubscriptionResponse } from './subscription.response';
import { CheckOrder, isUserOrSuperuser } from '../../common/auth/check-order';
import { ValidatedBody } from '../../common/http/validation';

/** `/api/users/<username>/notifications/` (api-spec.md Endpoints, weblate-api.md §5.2, §10.12). */
@ApiTags('users')
@ApiExtraModels(SubscriptionResponse)
@Controller('api/users/:username/notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @ApiOperation({ operationId: 'listUserNotifications', summary: 'List the notification subscriptions of a user' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(SubscriptionResponse)
  async list(@Ctx() ctx: RequestContext, @Param('username') username: string): Promise<ListEnvelope<SubscriptionResponse>> {
    const { page, count, items } = await this.notifications.list(username, parsePageRequest(ctx.query));
    return listEnvelope(ctx, page, count, items.map((subscription) => toSubscriptionResponse(subscription, ctx.links)));
  }

  /** 201 without Location: Weblate's notifications action returns none (weblate-api.md §10.12). */
  @Post()
  @CheckOrder({ object: 'user', permission: isUserOrSuperuser, message: 'Can not manage Users' })
  @ApiOperation({ operationId: 'createUserNotification', summary: 'Create a notification subscription' })
  @ApiCreatedResponse({ type: SubscriptionResponse })
  async create(@Ctx() ctx: RequestContext, @Param('username') username: string, @ValidatedBody() dto: CreateSubscriptionDto): Promise<SubscriptionResponse> {
    return toSubscriptionResponse(await this.notifications.create(ctx, username, dto), ctx.links);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getUserNotification', summary: 'Get a notification subscription' })
  @ApiOkResponse({ type: SubscriptionResponse })
  async detail(@Ctx() ctx: RequestContext, @Param('username') username: string, @Param('id') id: string): Promise<SubscriptionResponse> {
    return toSubscriptionResponse(await this.notifications.get(username, id), ctx.links);
  }

  @Put(':id')
  @CheckOrder({ object: 'subscription', permission: isUserOrSuperuser, message: 'Can not manage Users' })
  @ApiOperation({ operationId: 'replaceUserNotification', summary: 'Replace a notification subscription' })
  @ApiOkResponse({ type: SubscriptionResponse })
  async replace(
    @Ctx() ctx: RequestContext,
    @Param('username') username: string,
    @Param('id') id: string,
    @ValidatedBody() dto: CreateSubscriptionDto,
  ): Promise<SubscriptionResponse> {
    return toSubscriptionResponse(await this.notifications.update(ctx, username, id, dto), ctx.links);
  }

  @Patch(':id')
  @CheckOrder({ object: 'subscription', permission: isUserOrSuperuser, message: 'Can not manage Users' })
  @ApiOperation({ operationId: 'updateUserNotification', summary: 'Update a notification subscription (partial)' })
  @ApiOkResponse({ type: SubscriptionResponse })
  async update(
    @Ctx() ctx: RequestContext,
    @Param('username') username: string,
    @Param('id') id: string,
    @ValidatedBody() dto: UpdateSubscriptionDto,
  ): Promise<SubscriptionResponse> {
    return toSubscriptionResponse(await this.notifications.update(ctx, username, id, dto), ctx.links);
  }

  @Delete(':id')
  @CheckOrder({ object: 'subscription', permission: isUserOrSuperuser, message: 'Can not manage Users' })
  @ApiOperation({ operationId: 'deleteUserNotification', summary: 'Delete a notification subscription' })
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Ctx() ctx: RequestContext, @Param('username') username: string, @Param('id') id: string): Promise<void> {
    await this.notifications.remove(ctx, username, id);
  }
}
