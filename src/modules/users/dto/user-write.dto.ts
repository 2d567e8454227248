import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { checkEmail, DrfField } from '../../../common/http/drf-fields';

// Weblate's validate_username and validate_fullname (weblate/utils/validators.py).
const USERNAME = /^[\p{L}\p{N}_@+-][\p{L}\p{N}_.@+-]*$/u;
const NAME_OF_DISALLOWED_CHARACTERS = /^[.,;:<>"'\\]+$/;

function checkUsername(value: string): string | null {
  if (value.startsWith('.')) return 'The username can not start with a full stop.';
  return USERNAME.test(value) ? null : 'Username may only contain letters, numbers or the following characters: @ . + - _';
}

function checkFullName(value: string): string | null {
  if (value !== value.trim().replace(/[\x00-\x1f]/g, '')) return 'Please avoid using special characters in the full name.';
  return NAME_OF_DISALLOWED_CHARACTERS.test(value) ? 'Name consists only of disallowed characters.' : null;
}

/** Read-only user fields a client may echo back from a GET body (ignored, as DRF ignores them). */
class UserReadOnlyFields {
  @Allow() groups?: unknown;
  @Allow() notifications?: unknown;
  @Allow() date_joined?: unknown;
  @Allow() url?: unknown;
  @Allow() statistics_url?: unknown;
}

/** `POST /api/users/` and `PUT /api/users/<username>/` (weblate-api.md §5.2, §6.7). */
export class CreateUserDto extends UserReadOnlyFields {
  @ApiProperty({ maxLength: 150 })
  @DrfField({ type: 'string', required: true, maxLength: 150, check: checkUsername })
  username: string;

  @ApiProperty({ maxLength: 150 })
  @DrfField({ type: 'string', required: true, maxLength: 150, check: checkFullName })
  full_name: string;

  @ApiProperty({ maxLength: 190, format: 'email' })
  @DrfField({ type: 'string', required: true, maxLength: 190, check: checkEmail })
  email: string;

  @ApiPropertyOptional({ default: false }) @DrfField({ type: 'boolean' }) is_superuser?: boolean;
  @ApiPropertyOptional({ default: true }) @DrfField({ type: 'boolean' }) is_active?: boolean;
  @ApiPropertyOptional({ default: false }) @DrfField({ type: 'boolean' }) is_bot?: boolean;
}

/** `PATCH /api/users/<username>/`: any subset of the writable fields. */
export class UpdateUserDto extends UserReadOnlyFields {
  @ApiPropertyOptional({ maxLength: 150 })
  @DrfField({ type: 'string', maxLength: 150, check: checkUsername })
  username?: string;

  @ApiPropertyOptional({ maxLength: 150 })
  @DrfField({ type: 'string', maxLength: 150, check: checkFullName })
  full_name?: string;

  @ApiPropertyOptional({ maxLength: 190, format: 'email' })
  @DrfField({ type: 'string', maxLength: 190, check: checkEmail })
  email?: string;

  @ApiPropertyOptional() @DrfField({ type: 'boolean' }) is_superuser?: boolean;
  @ApiPropertyOptional() @DrfField({ type: 'boolean' }) is_active?: boolean;
  @ApiPropertyOptional() @DrfField({ type: 'boolean' }) is_bot?: boolean;
}
