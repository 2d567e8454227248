import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NotificationListener } from '../../database/notification-listener';
import { AUTH_CHANNEL, poolNotifications } from '../../database/pool-notifications';
import { ResponseMemo } from '../http/response-memo';
import { SuperuserHints } from './superuser-hints';
import { TokenCache } from './token-cache';

/**
 * This process's token cache (token-cache.ts), kept right by the glossa_auth notifications:
 * - from the pool's connections (pool-notifications.ts): this process's own changes, heard before the write
 *   that made them resolves; on the embedded PGlite (one process) that is every change, and the cache is on
 *   from the start;
 * - on PostgreSQL, from a LISTEN connection of its own (notification-listener.ts): every other process's
 *   changes. The cache answers only while that connection is up, and starts empty each time it is back.
 */
@Injectable()
export class AuthCacheService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly cache = new TokenCache();
  /** Which statement a superuser's scoped request runs (superuser-hints.ts); needs no invalidation. */
  readonly superusers = new SuperuserHints();
  /** Detail answers kept by their rows' versions (response-memo.ts); checked by every request, no invalidation. */
  readonly answers = new ResponseMemo();
  private listener: NotificationListener | undefined;
  private lastChange = 0;
  private readonly invalidate = (payload: string): void => {
    this.cache.invalidate();
    // The changing transaction's id (migration AuthNotifyTransaction); notifications of one listener arrive
    // in commit order, which is not always id order, hence the largest.
    const transaction = Number(payload);
    if (Number.isSafeInteger(transaction) && transaction > this.lastChange) this.lastChange = transaction;
  };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The largest id among the transactions changing keys, users, teams or roles whose notification this
   * process has heard (0 before the first). Transactions that follow one another have growing ids, so once it
   * reaches a change's id, this process has forgotten every answer that change made stale.
   */
  get lastChangeHeard(): number {
    return this.lastChange;
  }

  async onApplicationBootstrap(): Promise<void> {
    poolNotifications.on(AUTH_CHANNEL, this.invalidate);
    const [{ version }]: Array<{ version: string }> = await this.dataSource.query('SELECT version() AS version');
    if (/PGlite|emscripten/i.test(version)) {
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
