import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NotificationListener } from '../../database/notification-listener';
import { poolNotifications } from '../../database/pool-notifications';
import { TokenCache } from './token-cache';

/** Sent by the triggers of migration AuthNotify when tokens, users, teams, memberships or roles change. */
export const AUTH_CHANNEL = 'glossa_auth';

/**
 * This process's token cache (token-cache.ts), kept right by the glossa_auth notifications:
 * - PostgreSQL: a LISTEN connection of its own (every replica hears every commit); the cache answers only
 *   while it is up, and starts empty each time it is back.
 * - Embedded PGlite (one process): its single session delivers a commit's notifications on the connection
 *   that committed, which is one of this process's pool (pool-notifications.ts), before the write resolves.
 *   One LISTEN, issued through the pool, holds for the whole session.
 */
@Injectable()
export class AuthCacheService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly cache = new TokenCache();
  private listener: NotificationListener | undefined;
  private readonly invalidate = (): void => this.cache.invalidate();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    const [{ version }]: Array<{ version: string }> = await this.dataSource.query('SELECT version() AS version');
    if (/PGlite|emscripten/i.test(version)) {
      poolNotifications.on(AUTH_CHANNEL, this.invalidate);
      await this.dataSource.query(`LISTEN ${AUTH_CHANNEL}`);
      this.cache.listen();
      return;
    }
    const url = (this.dataSource.options as { url?: string }).url;
    if (url === undefined) return;
    this.listener = new NotificationListener(url, AUTH_CHANNEL, {
      notified: this.invalidate,
      listening: () => this.cache.listen(),
      lost: () => this.cache.deafen(),
    });
    await this.listener.start();
  }

  async onApplicationShutdown(): Promise<void> {
    poolNotifications.off(AUTH_CHANNEL, this.invalidate);
    this.cache.deafen();
    await this.listener?.close();
  }
}
