import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { parseAuthorizationHeader } from '../../common/auth/authorization-header';
import { hashToken } from '../../common/auth/token-hash';
import { ApiError } from '../../common/http/api-errors';
import { OpenStreams } from '../../common/http/open-streams';
import type { ApiCaller, RequestContext } from '../../common/http/request-context';
import type { LinkBuilder } from '../../common/links/link-builder';
import { serializeJson } from '../../common/serialization/json-writer';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ChangeFeed, decodeFeedPosition, encodeFeedPosition, type FeedPosition } from './change-feed';
import { ChangeStreamSession } from './change-stream-session';
import { toChangeResponse } from './change.response';
import { ChangeScope, ChangeSelection, ChangesService } from './changes.service';

// The change stream (issue 14 item 4): GET /api/changes/stream/ and the project/component/translation
// `.../changes/stream/` serve Server-Sent Events, one `event: change` per change with the list's JSON and the
// change's feed position as its `id`. Weblate has no such stream (integration.md §5.1, §5.2: clients poll
// /api/changes/ with timestamp filters and de-duplicate); Glossa follows its change feed (change-feed.ts), so a
// client that reconnects with Last-Event-ID gets exactly what it missed, in feed order, across replicas.
//
// Cost: the feed wakes the service (LISTEN/NOTIFY, or its poll); one shared query finds whether the feed's
// head moved, and only then does each stream read its own filtered batch, the caller's visibility evaluated in
// that read (a project made private stops appearing at the next batch). Reads take one of a few slots so open
// streams never hold more than that many pool connections.

/** Changes per read and per write to the socket. */
const BATCH_SIZE = 100;
/** The stream's parameters besides the list's filters: where to resume. */
const RESUME_PARAMETERS = ['last_event_id'] as const;

/** What a stream reads with: its selection, its caller (refreshed per batch) and the token that authenticated it. */
interface StreamReader {
  selection: ChangeSelection;
  caller: ApiCaller | null;
  tokenHash: string | null;
  links: LinkBuilder;
  /** The feed head this stream last read up to (see deliver). */
  seenHead: string | undefined;
}

/** At most `size` concurrent holders; the others wait in order. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}

@Injectable()
export class ChangeStreamService implements OnApplicationShutdown {
  private readonly logger = new Logger(ChangeStreamService.name);
  private readonly sessions = new Set<ChangeStreamSession>();
  /** Streams held per caller, counted from the capacity check on (before the stream's first await). */
  private readonly perCaller = new Map<string, number>();
  private held = 0;
  private readonly readSlots: Slots;
  private subscription: Promise<() => void> | undefined;
  /** Counts feed wake-ups; a head probe is valid for the wake-up it started after. */
  private generation = 0;
  private headProbe: { generation: number; head: Promise<string> } | undefined;

  constructor(
    private readonly changes: ChangesService,
    private readonly feed: ChangeFeed,
    private readonly dataSource: DataSource,
    private readonly openStreams: OpenStreams,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    // Half the pool at most (one connection on the embedded database): API requests keep the rest.
    this.readSlots = new Slots(Math.max(1, Math.floor(config.databasePoolSize / 2)));
  }

  /** Streams open in this process (for tests and metrics). */
  get openCount(): number {
    return this.sessions.size;
  }

  /**
   * Validates the request (404 scope, 400 filters or resume position, 429 over a cap), then answers 200 with
   * `text/event-stream` and keeps sending events until the client leaves or the process stops.
   */
  async open(request: Request, response: Response, ctx: RequestContext, scope: ChangeScope): Promise<void> {
    const selection = await this.changes.select(scope, ctx.query);
    const resume = await this.resumePosition(request, ctx.query);
    const callerKey = ctx.caller !== null ? `user:${ctx.caller.id}` : `address:${request.ip ?? 'unknown'}`;
    this.checkCapacity(callerKey);
    if (request.method === 'HEAD') {
      response.status(200).setHeader('Content-Type', 'text/event-stream');
      response.end();
      return;
    }
    // Taken before any further wait, so concurrent requests cannot all pass the check above.
    this.perCaller.set(callerKey, (this.perCaller.get(callerKey) ?? 0) + 1);
    this.held += 1;
    const release = (): void => {
      this.held -= 1;
      const left = (this.perCaller.get(callerKey) ?? 1) - 1;
      if (left > 0) this.perCaller.set(callerKey, left);
      else this.perCaller.delete(callerKey);
    };
    let start: FeedPosition;
    try {
      // Subscribed before the start is read: a change finished after it wakes this stream (change-feed.ts).
      await this.subscribe();
      start = resume ?? (await this.feed.head());
    } catch (error) {
      release();
      this.unsubscribeWhenIdle();
      throw error;
    }
    const heartbeatMs = this.config.changeStream.heartbeatSeconds * 1000;
    const session = new ChangeStreamSession(response, encodeFeedPosition(start), { heartbeatMs, stallMs: Math.max(60_000, 4 * heartbeatMs) });
    this.sessions.add(session);
    const forget = this.openStreams.add(() => session.close());
    session.onClose(() => {
      this.sessions.delete(session);
      forget();
      release();
      this.unsubscribeWhenIdle();
    });
    const reader: StreamReader = {
      selection,
      caller: ctx.caller,
      tokenHash: this.tokenHashOf(request),
      links: ctx.links,
      seenHead: undefined,
    };
    session.start();
    session.run((current) => this.deliver(current, reader)).catch((error: unknown) => {
      // A failed read ends the stream; the client resumes from its last event id.
      this.logger.warn(`A change stream ended on an error: ${error instanceof Error ? error.message : String(error)}`);
      session.close();
    });
  }

  onApplicationShutdown(): void {
    for (const session of [...this.sessions]) session.close();
  }

  /**
   * Sends everything readable after the session's position. Skipped when the feed's head has not moved since
   * this stream last read (one shared query for all streams per wake-up). Answers false when the caller's token
   * no longer authenticates.
   */
  private async deliver(session: ChangeStreamSession, reader: StreamReader): Promise<boolean> {
    const head = await this.currentHead();
    if (head === reader.seenHead) return true;
    for (;;) {
      if (session.isClosed) return true;
      const batch = await this.readSlots.run(async () => {
        if (!(await this.refreshCaller(reader))) return null;
        const position = decodeFeedPosition(session.position)!;
        const changes = await this.changes.readFeed(reader.selection, reader.caller, position, BATCH_SIZE);
        if (changes.length === 0) return { changes, rows: [] };
        // The token is checked again after the read: one revoked while the batch was read (after the first
        // check) must not be sent the changes committed after its revocation, which the read may include.
        if (!(await this.refreshCaller(reader))) return null;
        const rows = await this.changes.rowsByIds(changes.map((change) => change.id));
        return { changes, rows };
      });
      if (batch === null) return false;
      const byId = new Map(batch.rows.map((row) => [String(row.id), row]));
      await session.sendEvents(
        batch.changes.flatMap((change) => {
          const row = byId.get(change.id);
          return row === undefined ? [] : [{ id: encodeFeedPosition(change), data: serializeJson(toChangeResponse(row, reader.links)) }];
        }),
      );
      if (batch.changes.length < BATCH_SIZE) break;
    }
    // Whatever finished after `head` was probed woke the feed again, and is read at that wake-up.
    reader.seenHead = head;
    return true;
  }

  /**
   * The caller as the token now says (a revoked token or a deactivated user ends the stream; a superuser flag
   * change applies to the next read). Anonymous streams have nothing to refresh.
   */
  private async refreshCaller(reader: StreamReader): Promise<boolean> {
    if (reader.tokenHash === null) return true;
    const rows: Array<{ id: number; username: string; is_superuser: boolean; is_active: boolean }> = await this.dataSource.query(
      'SELECT u.id, u.username, u.is_superuser, u.is_active FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.key_hash = $1',
      [reader.tokenHash],
    );
    const row = rows[0];
    if (row === undefined || !row.is_active) return false;
    reader.caller = { id: row.id, username: row.username, isSuperuser: row.is_superuser };
    return true;
  }

  /** The feed's head as a token, probed once per wake-up for every stream. */
  private currentHead(): Promise<string> {
    if (this.headProbe?.generation !== this.generation) {
      const probe = { generation: this.generation, head: this.feed.head().then(encodeFeedPosition) };
      // A failed probe is not kept: the next stream asks again.
      probe.head.catch(() => {
        if (this.headProbe === probe) this.headProbe = undefined;
      });
      this.headProbe = probe;
    }
    return this.headProbe!.head;
  }

  private subscribe(): Promise<() => void> {
    this.subscription ??= this.feed.subscribe(() => {
      this.generation += 1;
      for (const session of this.sessions) session.wake();
    });
    const subscription = this.subscription;
    subscription.catch(() => {
      if (this.subscription === subscription) this.subscription = undefined;
    });
    return subscription;
  }

  /** With no stream left, the feed's LISTEN connection and poll are let go. */
  private unsubscribeWhenIdle(): void {
    if (this.held > 0 || this.subscription === undefined) return;
    const subscription = this.subscription;
    this.subscription = undefined;
    this.headProbe = undefined;
    void subscription.then((unsubscribe) => unsubscribe()).catch(() => undefined);
  }

  /**
   * Where a reconnecting client resumes: the Last-Event-ID header (what EventSource sends; it wins over the URL,
   * which still names the first connection's start), else `cursor`, `last_event_id` or `id__gt` in the query;
   * undefined to start at the head (only new changes).
   */
  private async resumePosition(request: Request, query: Record<string, unknown>): Promise<FeedPosition | undefined> {
    const header = request.headers['last-event-id'];
    const lastEventId = (Array.isArray(header) ? header[header.length - 1] : header)?.trim();
    if (lastEventId) {
      const position = decodeFeedPosition(lastEventId);
      if (position === null) throw new ApiError(400, 'Invalid Last-Event-ID header.');
      return position;
    }
    return this.changes.cursorOf(query, RESUME_PARAMETERS);
  }

  /** 429 beyond the per-process and per-caller caps; 503 while the process stops. */
  private checkCapacity(callerKey: string): void {
    if (this.openStreams.isClosing) throw new ApiError(503, 'The server is shutting down.');
    const { maxOpen, maxPerCaller } = this.config.changeStream;
    if (this.held >= maxOpen) throw new ApiError(429, 'Too many change streams are open.');
    if ((this.perCaller.get(callerKey) ?? 0) >= maxPerCaller) throw new ApiError(429, 'Too many change streams are open for this caller.');
  }

  private tokenHashOf(request: Request): string | null {
    const key = parseAuthorizationHeader(request.headers.authorization);
    return key === null ? null : hashToken(key);
  }
}
