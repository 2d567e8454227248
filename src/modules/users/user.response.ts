import { ApiProperty } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';
import { pathOf } from '../../common/links/link-builder';
import { formatTimestamp } from '../../common/serialization/timestamp';
import type { User } from './user.entity';

/** What callers without user-management rights see of a user ([4.x] BasicUserSerializer, weblate-api.md §6.7). */
export class BasicUserResponse {
  @ApiProperty() full_name: string;
  @ApiProperty() username: string;
}

/** The whole user, for callers with user-management rights ([4.x] FullUserSerializer, weblate-api.md §6.7). */
export class UserResponse {
  @ApiProperty() email: string;
  @ApiProperty() full_name: string;
  @ApiProperty() username: string;
  @ApiProperty({ type: [String], description: 'API URLs of the teams the user belongs to, by team id' })
  groups: string[];
  @ApiProperty({ description: 'API URL of the notification subscriptions' }) notifications: string;
  @ApiProperty() is_superuser: boolean;
  @ApiProperty() is_active: boolean;
  @ApiProperty() is_bot: boolean;
  @ApiProperty({ format: 'date-time' }) date_joined: string;
  @ApiProperty() url: string;
  @ApiProperty() statistics_url: string;
}

/** `/api/users/<username>/statistics/` (weblate-api.md §5.2). */
export class UserStatisticsResponse {
  @ApiProperty({ description: 'Strings translated by the user' }) translated: number;
  @ApiProperty({ description: 'Suggestions made' }) suggested: number;
  @ApiProperty({ description: 'Translation files uploaded' }) uploaded: number;
  @ApiProperty({ description: 'Comments made' }) commented: number;
  @ApiProperty({ description: 'Languages the user translated into' }) languages: number;
}

export const userApiPath = (username: string): string => pathOf('api', 'users', username);

export function toBasicUserResponse(user: User): BasicUserResponse {
  return { full_name: user.fullName, username: user.username };
}

/** `teamIds`: the user's teams (user-groups.ts), listed as their API URLs as Weblate lists them. */
export function toUserResponse(user: User, teamIds: readonly number[], links: LinkBuilder): UserResponse {
  const base = userApiPath(user.username);
  return {
    email: user.email,
    full_name: user.fullName,
    username: user.username,
    groups: teamIds.map((id) => links.api(pathOf('api', 'groups', String(id)))),
    notifications: links.api(`${base}notifications/`),
    is_superuser: user.isSuperuser,
    is_active: user.isActive,
    is_bot: user.isBot,
    date_joined: formatTimestamp(user.dateJoined)!,
    url: links.api(base),
    statistics_url: links.api(`${base}statistics/`),
  };
}
