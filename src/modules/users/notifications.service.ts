import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, SelectQueryBuilder } from 'typeorm';
import { ApiValidationError, notFound, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { CreateSubscriptionDto, UpdateSubscriptionDto } from './dto/subscription-write.dto';
import { Subscription } from './subscription.entity';
import { User } from './user.entity';
import { UsersService } from './users.service';

/** A user's notification subscriptions, `/api/users/<username>/notifications/` (weblate-api.md §5.2). */
@Injectable()
export class NotificationsService {
  constructor(
    @InjectRepository(Subscription) private readonly subscriptions: Repository<Subscription>,
    private readonly users: UsersService,
  ) {}

  /**
   * Ordered by id. Readable by anyone who can see the user, as in Weblate 4.x. Three queries whatever the
   * page size: the user, the count, and the page with project and component (and the component's project
   * and source language) joined.
   */
  async list(username: string, pageRequest: PageRequest): Promise<{ page: ResolvedPage; count: number; items: Subscription[] }> {
    const user = await this.users.getByUsername(username);
    const count = await this.subscriptions.countBy({ userId: user.id });
    const page = resolvePage(pageRequest, count);
    const items = await this.withRelations()
      .where('subscription.userId = :userId', { userId: user.id })
      .orderBy('subscription.id', 'ASC')
      .offset(page.offset)
      .limit(page.size)
      .getMany();
    return { page, count, items };
  }

  async get(username: string, id: string): Promise<Subscription> {
    const user = await this.users.getByUsername(username);
    return this.find(user, id);
  }

  async create(ctx: RequestContext, username: string, dto: CreateSubscriptionDto): Promise<Subscription> {
    const user = await this.users.getByUsername(username);
    this.assertCanManage(ctx, user);
    await this.assertNoDuplicate(user, dto.notification, dto.scope);
    const saved = await this.subscriptions.save(
      this.subscriptions.create({ userId: user.id, notification: dto.notification, scope: dto.scope, frequency: dto.frequency }),
    );
    return this.find(user, String(saved.id));
  }

  /** PUT (all three fields) and PATCH (any subset); `project` and `component` cannot be changed (§6.8). */
  async update(ctx: RequestContext, username: string, id: string, dto: UpdateSubscriptionDto): Promise<Subscription> {
    const user = await this.users.getByUsername(username);
    const subscription = await this.find(user, id);
    this.assertCanManage(ctx, user);
    const notification = dto.notification ?? subscription.notification;
    const scope = dto.scope ?? subscription.scope;
    if (notification !== subscription.notification || scope !== subscription.scope) {
      await this.assertNoDuplicate(user, notification, scope, subscription);
    }
    await this.subscriptions.update(
      { id: subscription.id },
      { notification, scope, frequency: dto.frequency ?? subscription.frequency },
    );
    return this.find(user, id);
  }

  async remove(ctx: RequestContext, username: string, id: string): Promise<void> {
    const user = await this.users.getByUsername(username);
    const subscription = await this.find(user, id);
    this.assertCanManage(ctx, user);
    await this.subscriptions.delete({ id: subscription.id });
  }

  private withRelations(): SelectQueryBuilder<Subscription> {
    return this.subscriptions
      .createQueryBuilder('subscription')
      .leftJoinAndSelect('subscription.project', 'project')
      .leftJoinAndSelect('subscription.component', 'component')
      .leftJoinAndSelect('component.project', 'componentProject')
      .leftJoinAndSelect('component.sourceLanguage', 'componentSourceLanguage');
  }

  /** A subscription of this user; unknown, malformed or another user's ids are 404. */
  private async find(user: User, id: string): Promise<Subscription> {
    if (!/^\d{1,9}$/.test(id)) throw notFound();
    const subscription = await this.withRelations()
      .where('subscription.id = :id AND subscription.userId = :userId', { id: Number(id), userId: user.id })
      .getOne();
    if (!subscription) throw notFound();
    return subscription;
  }

  /**
   * Writes are for the user themself and for user administrators: Weblate 4.x allowed only `user.edit`,
   * 5.16.1 added the user themself (weblate-api.md §5.2), which is what a user managing their own
   * notifications expects.
   */
  private assertCanManage(ctx: RequestContext, user: User): void {
    if (!ctx.isSuperuser && ctx.caller?.id !== user.id) throw permissionDenied('Can not manage Users');
  }

  /**
   * One subscription per kind and scope (the entity's unique index, which NULL project/component columns
   * would otherwise slip through): a second identical row could only make notifications ambiguous.
   */
  private async assertNoDuplicate(user: User, notification: string, scope: number, except?: Subscription): Promise<void> {
    const existing = await this.subscriptions
      .createQueryBuilder('subscription')
      .where('subscription.userId = :userId AND subscription.notification = :notification AND subscription.scope = :scope', {
        userId: user.id,
        notification,
        scope,
      })
      .andWhere('subscription.projectId IS NULL AND subscription.componentId IS NULL')
      .getOne();
    if (existing && existing.id !== except?.id) {
      throw new ApiValidationError({ non_field_errors: ['The fields notification, scope must make a unique set.'] });
    }
  }
}
