import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { notAuthenticated } from '../http/api-errors';
import { requestContextOf } from '../http/request-context';
import { parseAuthorizationHeader } from './authorization-header';
import { resolveAccess } from './scope-access';
import { hashToken } from './token-hash';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Authenticates the token (if any) and applies DRF's IsAuthenticatedOrReadOnly: anonymous callers may
 * read, every write needs a valid token (401 otherwise, weblate-api.md §2.1, §2.3). Object permissions
 * are checked by the services.
 */
@Injectable()
export class ApiAuthGuard implements CanActivate {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    if (!request.path.startsWith('/api/')) return true;
    const ctx = requestContextOf(request);
    const key = parseAuthorizationHeader(request.headers.authorization);
    if (key !== null) {
      const rows: Array<{ id: number; username: string; is_superuser: boolean; is_active: boolean }> = await this.dataSource.query(
        `SELECT u.id, u.username, u.is_superuser, u.is_active
           FROM api_tokens t JOIN users u ON u.id = t.user_id
          WHERE t.key_hash = $1`,
        [hashToken(key)],
      );
      if (rows.length === 0) throw notAuthenticated('Invalid token.');
      if (!rows[0].is_active) throw notAuthenticated('User inactive or deleted.');
      ctx.caller = { id: rows[0].id, username: rows[0].username, isSuperuser: rows[0].is_superuser };
    }
    if (!SAFE_METHODS.has(request.method) && ctx.caller === null) throw notAuthenticated();
    await resolveAccess(this.dataSource, request.path, ctx);
    return true;
  }
}
