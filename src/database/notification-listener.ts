import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** What a listener reports: notifications, and whether they can currently be heard at all. */
export interface NotificationHandlers {
  notified(payload: string): void;
  /** LISTEN is in place (first time or after a reconnect): notifications sent from now on arrive. */
  listening(): void;
  /** The connection is gone: notifications sent meanwhile are lost until listening() is called again. */
  lost(): void;
}

export interface NotificationListenerOptions {
  /** A lost connection is opened again after this long. */
  reconnectMs: number;
  /** The connection is probed this often; a probe unanswered for as long counts as a lost connection. */
  probeMs: number;
}

const DEFAULTS: NotificationListenerOptions = { reconnectMs: 1_000, probeMs: 5_000 };

/**
 * One LISTEN connection of its own to PostgreSQL for one channel, opened again whenever it is lost. For
 * listeners that must know when they may have missed something (a cache that is only right while it hears
 * every invalidation): `lost` is reported as soon as the connection errors or ends, or does not answer a
 * probe in time (a half-open TCP connection reports nothing by itself), and `listening` once LISTEN is
 * back. The change feed keeps its own connection (src/modules/changes/change-feed.ts), since it polls anyway.
 */
export class NotificationListener {
  private readonly logger = new Logger(NotificationListener.name);
  private readonly options: NotificationListenerOptions;
  private client: Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly handlers: NotificationHandlers,
    options: Partial<NotificationListenerOptions> = {},
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a plain channel name: ${channel}`);
    this.options = { ...DEFAULTS, ...options };
  }

  /** Connects and listens; resolves once listening, or after the first failure (it then keeps trying). */
  async start(): Promise<void> {
    await this.connect().catch((error: unknown) => this.retry(error as Error));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.probeTimer) clearInterval(this.probeTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url, application_name: `${this.channel.replace(/_/g, '-')}-listener`, keepAlive: true });
    client.on('notification', (message) => {
      if (message.channel === this.channel && this.client === client) this.handlers.notified(message.payload ?? '');
    });
    client.on('error', (error) => this.drop(client, error));
    client.on('end', () => this.drop(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      void client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.probeTimer ??= setInterval(() => this.probe(), this.options.probeMs).unref();
    this.handlers.listening();
  }

  /** A round trip on the connection; one that does not come back within probeMs ends the connection. */
  private probe(): void {
    const client = this.client;
    if (client === undefined) return;
    const timeout = setTimeout(() => this.drop(client, new Error(`no answer within ${this.options.probeMs} ms`)), this.options.probeMs).unref();
    client.query('SELECT 1').then(
      () => clearTimeout(timeout),
      (error: unknown) => {
        clearTimeout(timeout);
        this.drop(client, error as Error);
      },
    );
  }

  private drop(client: Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.handlers.lost();
    void client.end().catch(() => undefined);
    this.retry(error);
  }

  private retry(error?: Error): void {
    if (this.closed || this.reconnectTimer) return;
    this.logger.warn(`The ${this.channel} LISTEN connection is down${error ? ` (${error.message})` : ''}; reconnecting`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closed || this.client) return;
      this.connect().catch((next: unknown) => this.retry(next as Error));
    }, this.options.reconnectMs).unref();
  }
}
