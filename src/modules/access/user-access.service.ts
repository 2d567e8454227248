import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { generateUserToken, hashToken } from '../../common/auth/token-hash';
import { ApiValidationError, notFound, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { validateBody } from '../../common/http/validation';
import { User } from '../users/user.entity';
import { teamIdsByUser } from '../users/user-groups';
import { Group } from './access.entities';
import { DelegationService, teamStateOf } from './delegation.service';
import { UserGroupDto } from './dto/access-write.dto';

/**
 * A user's team memberships and API key (weblate-api.md §5.2; the key route is Glossa's own). Both need the
 * global `user.edit` (Weblate's UserViewSet.perm_check, checked before the lookup). Issue 10 item 3: a
 * non-superuser holding it through a team could mint the superuser's key (and so become the superuser,
 * revoking ADMIN_TOKEN's key on the way) or join any team. Now only superusers act on superusers, only a
 * superuser issues a key for someone else, and memberships change only in teams within the caller's reach
 * (delegation.ts).
 */
@Injectable()
export class UserAccessService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly delegation: DelegationService,
  ) {}

  /**
   * `POST/DELETE /api/users/<username>/groups/`: the user and its teams after the change (the answer is the
   * full user object, whose `groups` shows the change).
   */
  async setMembership(ctx: RequestContext, username: string, body: unknown, add: boolean): Promise<{ user: User; teamIds: number[] }> {
    this.requireUserEdit(ctx);
    const user = await this.findUser(username);
    if (user.isSuperuser && !ctx.isSuperuser) throw permissionDenied();
    const groupId = (await validateBody(UserGroupDto, body)).group_id;
    const group = await this.dataSource.getRepository(Group).findOne({ where: { id: groupId }, relations: { roles: true, projects: true, components: true } });
    if (!group) throw new ApiValidationError({ group_id: ['Group not found.'] });
    // Joining hands out what the team grants; leaving takes it away: either only for a team within reach.
    await this.delegation.assertMayManageTeam(ctx, teamStateOf(group));
    if (!user.isActive) throw new ApiValidationError({ username: ['User is not active.'] });
    const sql = add
      ? `INSERT INTO group_members (group_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`
      : `DELETE FROM group_members WHERE group_id = $1 AND user_id = $2`;
    await this.dataSource.query(sql, [group.id, user.id]);
    return { user, teamIds: (await teamIdsByUser(this.dataSource, [user.id])).get(user.id) ?? [] };
  }

  /**
   * `POST /api/users/<username>/token/`. A user holds one token, as in DRF's token table: a new key replaces
   * the old one, is answered once and stored hashed. Superusers may issue one for anybody; a user.edit
   * holder only for themselves (Weblate's profile page lets every user regenerate their own key, and no
   * one else's): a key for another user is that user's identity.
   */
  async issueToken(ctx: RequestContext, username: string): Promise<string> {
    this.requireUserEdit(ctx);
    const user = await this.findUser(username);
    if (!ctx.isSuperuser && user.id !== ctx.caller?.id) throw permissionDenied();
    if (!user.isActive) throw new ApiValidationError({ username: ['User is not active.'] });
    const key = generateUserToken();
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`DELETE FROM api_tokens WHERE user_id = $1`, [user.id]);
      await manager.query(`INSERT INTO api_tokens (user_id, key_hash) VALUES ($1, $2)`, [user.id, hashToken(key)]);
    });
    return key;
  }

  private requireUserEdit(ctx: RequestContext): void {
    if (!ctx.can('user.edit')) throw permissionDenied('Can not manage Users');
  }

  private async findUser(username: string): Promise<User> {
    const user = await this.dataSource.getRepository(User).findOneBy({ username });
    if (!user) throw notFound();
    return user;
  }
}
