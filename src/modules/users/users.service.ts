import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError, Repository, SelectQueryBuilder } from 'typeorm';
import { ApiValidationError, FieldErrors, notFound, permissionDenied } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { convertDrfValue, lastQueryValue } from '../../common/http/drf-fields';
import { ANONYMOUS_USERNAME } from '../access/builtin-access';
import { createDefaultSubscriptions } from './default-subscriptions';
import { teamIdsByUser } from './user-groups';
import { CreateUserDto, UpdateUserDto } from './dto/user-write.dto';
import { UserStatisticsResponse } from './user.response';
import { User } from './user.entity';

const UNIQUE_VIOLATION = '23505';
const DUPLICATE_USERNAME = 'A user with that username already exists.';
const DUPLICATE_EMAIL = 'User with this E-mail already exists.';

// Change actions behind the user statistics (weblate-api.md §8.1). Weblate keeps counters on the profile;
// Glossa derives them from the history. "Translated" counts every translation the user authored: edits
// (2 changed, 5 new, 8 reverted, 27 replaced, 36 approved, 37 marked for edit), accepted suggestions (7,
// credited to the suggestion's author), automatic translation (6) and uploaded strings (9), which are the
// paths on which Weblate increases the counter.
const TRANSLATED_ACTIONS = [2, 5, 6, 7, 8, 9, 27, 36, 37];
const SUGGESTION_ACTION = 4;
const COMMENT_ACTION = 3;
const UPLOAD_ACTIONS = [9, 54];

export interface UserListFilters {
  username?: string;
  id?: number;
  isActive?: boolean;
}

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Users ordered by id. Weblate 4.x lists every user to every caller (weblate-api.md §5.2, §2.6); what
   * a caller sees of each is the controller's choice of serializer. Filters of §7.3: `username` (prefix,
   * case-sensitive), `id`, `is_active`. One count and one page query.
   */
  async list(pageRequest: PageRequest, filters: UserListFilters): Promise<{ page: ResolvedPage; count: number; items: User[] }> {
    const count = await this.filtered(filters).getCount();
    const page = resolvePage(pageRequest, count);
    const items = await this.filtered(filters).orderBy('user.id', 'ASC').offset(page.offset).limit(page.size).getMany();
    return { page, count, items };
  }

  /** The list filters from the query string; invalid values are 400 as django-filter reports them. */
  parseFilters(query: Record<string, unknown>): UserListFilters {
    const filters: UserListFilters = {};
    const username = lastQueryValue(query.username);
    if (username) filters.username = username;
    const id = lastQueryValue(query.id);
    if (id !== undefined && id !== '') {
      if (!/^\s*-?\d+(\.0*)?\s*$/.test(id)) throw new ApiValidationError({ id: ['Enter a number.'] });
      filters.id = Number.parseInt(id, 10);
    }
    // django-filter's BooleanFilter ignores values it does not recognise.
    const isActive = convertDrfValue({ type: 'boolean' }, lastQueryValue(query.is_active));
    if (typeof isActive === 'boolean') filters.isActive = isActive;
    return filters;
  }

  /** Each user's team ids (the `groups` field), one query for the lot. */
  teamIds(users: readonly User[]): Promise<Map<number, number[]>> {
    return teamIdsByUser(this.dataSource, users.map((user) => user.id));
  }

  async getByUsername(username: string): Promise<User> {
    const user = await this.users.findOneBy({ username });
    if (!user) throw notFound();
    return user;
  }

  /** Creates a user with the default notification subscriptions (weblate-api.md §8.5), in one transaction. */
  async create(ctx: RequestContext, dto: CreateUserDto): Promise<User> {
    this.assertCanManage(ctx);
    this.assertMayWrite(ctx, null, dto);
    await this.assertUnique(dto.username, dto.email);
    return this.saving(() =>
      this.dataSource.transaction(async (manager) => {
        const repository = manager.getRepository(User);
        const user = await repository.save(
          repository.create({
            username: dto.username,
            fullName: dto.full_name,
            email: dto.email,
            isSuperuser: dto.is_superuser ?? false,
            isActive: dto.is_active ?? true,
            isBot: dto.is_bot ?? false,
          }),
        );
        await createDefaultSubscriptions(manager, user.id);
        return repository.findOneByOrFail({ id: user.id });
      }),
    );
  }

  /** PUT and PATCH; Weblate 4.x checks `user.edit` before the lookup (403 for any username). */
  async update(ctx: RequestContext, username: string, dto: UpdateUserDto): Promise<User> {
    this.assertCanManage(ctx);
    const user = await this.getByUsername(username);
    this.assertMayWrite(ctx, user, dto);
    await this.assertUnique(dto.username, dto.email, user.id);
    if (dto.username !== undefined) user.username = dto.username;
    if (dto.full_name !== undefined) user.fullName = dto.full_name;
    if (dto.email !== undefined) user.email = dto.email;
    if (dto.is_superuser !== undefined) user.isSuperuser = dto.is_superuser;
    if (dto.is_active !== undefined) user.isActive = dto.is_active;
    if (dto.is_bot !== undefined) user.isBot = dto.is_bot;
    return this.saving(() => this.users.save(user));
  }

  /**
   * Weblate's remove_user: the row stays (history keeps pointing at it) but personal data is erased and
   * the account deactivated: username `deleted-<id>`, name "Deleted User", no e-mail, no tokens, no
   * subscriptions (weblate-api.md §5.2).
   */
  async remove(ctx: RequestContext, username: string): Promise<void> {
    this.assertCanManage(ctx);
    const user = await this.getByUsername(username);
    this.assertMayWrite(ctx, user, {});
    await this.dataSource.transaction(async (manager: EntityManager) => {
      let newName = `deleted-${user.id}`;
      for (let attempt = 1; await manager.getRepository(User).existsBy({ username: newName }); attempt += 1) {
        newName = `deleted-${user.id}-${attempt}`;
      }
      await manager.update(User, { id: user.id }, { username: newName, fullName: 'Deleted User', email: '', isActive: false });
      await manager.query('DELETE FROM api_tokens WHERE user_id = $1', [user.id]);
      await manager.query('DELETE FROM subscriptions WHERE user_id = $1', [user.id]);
    });
  }

  /** `/api/users/<username>/statistics/`, counted from the change history in one query. */
  async statistics(username: string): Promise<UserStatisticsResponse> {
    const user = await this.getByUsername(username);
    const [row]: Array<Record<keyof UserStatisticsResponse, string>> = await this.dataSource.query(
      `SELECT
         count(*) FILTER (WHERE action = ANY($2) AND COALESCE(author_id, user_id) = $1) AS translated,
         count(*) FILTER (WHERE action = $3 AND user_id = $1) AS suggested,
         -- One upload writes a change per string; the strings of one upload share translation and second.
         count(DISTINCT (translation_id, date_trunc('second', "timestamp")))
           FILTER (WHERE action = ANY($4) AND user_id = $1) AS uploaded,
         count(*) FILTER (WHERE action = $5 AND user_id = $1) AS commented,
         count(DISTINCT language_id) FILTER (WHERE action = ANY($2) AND COALESCE(author_id, user_id) = $1) AS languages
       FROM changes
       WHERE user_id = $1 OR author_id = $1`,
      [user.id, TRANSLATED_ACTIONS, SUGGESTION_ACTION, UPLOAD_ACTIONS, COMMENT_ACTION],
    );
    return {
      translated: Number(row.translated),
      suggested: Number(row.suggested),
      uploaded: Number(row.uploaded),
      commented: Number(row.commented),
      languages: Number(row.languages),
    };
  }

  private filtered(filters: UserListFilters): SelectQueryBuilder<User> {
    const query = this.users.createQueryBuilder('user');
    if (filters.username !== undefined) query.andWhere('starts_with(user.username, :username)', { username: filters.username });
    if (filters.id !== undefined) query.andWhere('user.id = :id', { id: filters.id });
    if (filters.isActive !== undefined) query.andWhere('user.isActive = :isActive', { isActive: filters.isActive });
    return query;
  }

  /** Weblate's UserViewSet.perm_check: the global `user.edit`, which superusers hold and a team may grant. */
  private assertCanManage(ctx: RequestContext): void {
    if (!ctx.can('user.edit')) throw permissionDenied('Can not manage Users');
  }

  /**
   * What a user.edit holder who is not a superuser may not do (issue 10 item 3), DRF's default 403 after the
   * lookup: act on a superuser (edit, deactivate, delete), make anyone a superuser, or give a user the
   * name ADMIN_USERNAME, which the next start would make a superuser holding ADMIN_TOKEN's key
   * (admin-bootstrap.ts upserts that user by name).
   */
  private assertMayWrite(ctx: RequestContext, target: User | null, dto: UpdateUserDto): void {
    // Weblate's internal account for anonymous requests cannot be edited, not even by superusers.
    if (target?.username === ANONYMOUS_USERNAME) throw permissionDenied('This user can not be edited.');
    if (ctx.isSuperuser) return;
    const takesAdminName = dto.username === this.config.adminUsername && target?.username !== this.config.adminUsername;
    if (target?.isSuperuser || dto.is_superuser === true || takesAdminName) throw permissionDenied();
  }

  /** DRF's UniqueValidator messages for the two unique user fields, checked up front. */
  private async assertUnique(username: string | undefined, email: string | undefined, exceptId?: number): Promise<void> {
    const errors: FieldErrors = {};
    if (username !== undefined) {
      const other = await this.users.findOneBy({ username });
      if (other && other.id !== exceptId) errors.username = [DUPLICATE_USERNAME];
    }
    if (email) {
      const other = await this.users.findOneBy({ email });
      if (other && other.id !== exceptId) errors.email = [DUPLICATE_EMAIL];
    }
    if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  }

  /** A concurrent insert of the same username can still win the race; report it like the check. */
  private async saving<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === UNIQUE_VIOLATION) {
        throw new ApiValidationError({ username: [DUPLICATE_USERNAME] });
      }
      throw error;
    }
  }
}
