import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { ChangeStreamService } from '../../src/modules/changes/change-stream.service';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { eventually } from '../support/server-process';
import { SseClient } from '../support/sse-client';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';
import { PATIENCE_MS } from '../support/wait';

// The change stream and the cursor on the changes lists (issue 14 item 4): Server-Sent Events with the lists'
// change objects, resumable with Last-Event-ID in feed order, visibility checked per batch, heartbeats, caps.
const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);

const CHANGE_KEYS = ['id', 'unit', 'component', 'translation', 'user', 'author', 'timestamp', 'action', 'action_name', 'target', 'url'];
const POSITION_TOKEN = /^\d+\.\d+$/;

describe('change stream', () => {
  let app: TestApp;
  let origin: string;
  let db: DataSource;
  let streams: ChangeStreamService;
  let content: SeededContent;
  let secret: SeededContent;
  let other: SeededContent;
  let member: { id: number; username: string; token: string };
  const admin = { Authorization: `Token ${TEST_ADMIN_TOKEN}` };
  const open: SseClient[] = [];

  beforeAll(async () => {
    app = await createTestApp({ CHANGE_STREAM_HEARTBEAT_SECONDS: '0.2', CHANGE_STREAM_MAX_PER_CALLER: '2', CHANGE_STREAM_MAX_OPEN: '3' });
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    db = app.glossa.app.get(DataSource);
    streams = app.glossa.app.get(ChangeStreamService);
    content = await createTranslatedComponent(db, { languages: ['cs', 'de'], units: 4 });
    secret = await createTranslatedComponent(db, { project: { name: 'Secret', slug: 'secret', accessControl: 100 }, languages: ['cs'], units: 2 });
    other = await createTranslatedComponent(db, { languages: ['fr'], units: 1 });
    member = await createUserWithToken(db, 'member');
  });

  afterEach(async () => {
    for (const client of open.splice(0)) client.close();
    // The server notices each disconnect on its own; the next test starts with no stream held.
    await eventually(async () => (streams.openCount === 0 ? true : undefined), PATIENCE_MS, 'every stream closed');
  });

  afterAll(async () => {
    await app?.close();
  });

  const connect = async (path: string, headers: Record<string, string> = {}): Promise<SseClient> => {
    const client = await SseClient.connect(`${origin}${path}`, headers);
    open.push(client);
    return client;
  };

  /**
   * Waits until every change recorded so far is readable by the feed, which reads only changes below the oldest
   * running transaction (change-feed.ts glossa_feed_horizon). A stream started while a background transaction was
   * open put its head below the newest fixture changes and sent them as new events (seen once in a loaded run:
   * three events where an edit made two).
   */
  const feedCaughtUp = (): Promise<unknown> =>
    eventually(
      async () => {
        const [{ readable }]: Array<{ readable: boolean }> = await db.query(`SELECT coalesce((SELECT max(xact) FROM changes) < glossa_feed_horizon(), true) AS readable`);
        return readable ? true : undefined;
      },
      PATIENCE_MS,
      'every change readable by the feed',
    );

  /** A stream that has started: its first block (the starting position) has arrived. */
  const connectStarted = async (path: string, headers: Record<string, string> = {}): Promise<SseClient> => {
    await feedCaughtUp();
    const client = await connect(path, headers);
    expect(client.status).toBe(200);
    await client.waitUntil(() => client.lastEventId !== '', PATIENCE_MS, 'the starting position');
    return client;
  };

  /** Disconnects and waits until the server has let the stream go (its caps count it until then). */
  const disconnect = async (client: SseClient): Promise<void> => {
    const before = streams.openCount;
    client.close();
    await eventually(async () => (streams.openCount < before ? true : undefined), PATIENCE_MS, 'the stream closed on the server');
  };

  /** Records a change as the application does, straight in the database; answers its id. */
  const insertChange = async (
    scope: SeededContent,
    target: string,
    options: { action?: number; language?: number; userId?: number | null; runner?: Pick<DataSource, 'query'> } = {},
  ): Promise<number> => {
    const translation = options.language === undefined ? null : scope.translations[options.language];
    const [{ id }]: Array<{ id: string }> = await (options.runner ?? db).query(
      `INSERT INTO changes (action, target, project_id, component_id, translation_id, user_id)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::text AS id`,
      [options.action ?? 5, target, scope.project.id, scope.component.id, translation?.id ?? null, options.userId ?? null],
    );
    return Number(id);
  };

  describe('events', () => {
    it('answers 200 text/event-stream with the route headers and the starting position, then one event per change', async () => {
      const client = await connectStarted('/api/changes/stream/');
      expect(client.headers['content-type']).toBe('text/event-stream');
      expect(client.headers['cache-control']).toBe('no-cache');
      expect(client.headers['vary']).toBe('Accept');
      expect(client.headers['allow']).toBe('GET, HEAD, OPTIONS');
      expect(client.headers['x-accel-buffering']).toBe('no');
      expect(client.headers['content-length']).toBeUndefined();
      expect(client.lastEventId).toMatch(POSITION_TOKEN);
      // No history: a stream without a resume position starts at the head.
      expect(client.events).toEqual([]);

      // A change made through the API: action 45 (new contributor) and 5 (new translation).
      await app.http().patch(`/api/units/${content.translations[0].unitIds[1]}/`).set(...authHeader(TEST_ADMIN_TOKEN)).send({ target: ['Druhý'], state: 20 }).expect(200);
      await client.waitUntil(() => client.events.length >= 2, PATIENCE_MS, 'the two changes of the edit');
      expect(client.events.map((event) => event.event)).toEqual(['change', 'change']);
      const [contributor, translated] = client.events.map((event) => JSON.parse(event.data) as Record<string, unknown>);
      expect([contributor.action, translated.action]).toEqual([45, 5]);
      for (const [index, event] of client.events.entries()) {
        expect(event.id).toMatch(POSITION_TOKEN);
        const change = JSON.parse(event.data) as Record<string, unknown>;
        expect(Object.keys(change)).toEqual(CHANGE_KEYS);
        // The same object as the list and detail routes answer.
        const detail = await app.http().get(`/api/changes/${change.id as number}/`).expect(200);
        expect(change).toEqual(detail.body);
        expect(change.user).toBe(apiLink(origin, '/api/users/admin/'));
        if (index > 0) expect(event.id).not.toBe(client.events[index - 1].id);
      }
      expect(client.lastEventId).toBe(client.events[1].id);
    });

    it('sends heartbeat comments while idle', async () => {
      const client = await connectStarted('/api/changes/stream/');
      await client.waitUntil(() => client.comments.includes('ping'), PATIENCE_MS, 'a heartbeat');
      expect(client.events).toEqual([]);
    });

    it('answers HEAD with the stream headers and no body, and 405 for writes', async () => {
      const head = await app.http().head('/api/changes/stream/').expect(200);
      expect(head.headers['content-type']).toBe('text/event-stream');
      const post = await app.http().post('/api/changes/stream/').set(...authHeader(TEST_ADMIN_TOKEN)).send({}).expect(405);
      expectApiHeaders(post, 'GET, HEAD, OPTIONS');
      // `stream` is a route of its own, never a change id.
      const options = await app.http().options('/api/changes/stream/').expect(200);
      expectApiHeaders(options, 'GET, HEAD, OPTIONS');
    });
  });

  describe('resuming', () => {
    it('resumes after Last-Event-ID with exactly the changes missed, none twice', async () => {
      const first = await connectStarted('/api/changes/stream/');
      const seen = [await insertChange(content, 'r1'), await insertChange(content, 'r2')];
      await first.waitForChange(seen[1]);
      await disconnect(first);
      const missed = [await insertChange(content, 'r3'), await insertChange(content, 'r4'), await insertChange(content, 'r5')];
      const second = await connectStarted('/api/changes/stream/', { 'Last-Event-ID': first.lastEventId });
      await second.waitForChange(missed[2]);
      expect(first.changeIds()).toEqual(seen);
      expect(second.changeIds()).toEqual(missed);
      // The query parameter does the same for clients that cannot set headers; the header wins over it
      // (EventSource reconnects to the first URL with the header).
      const byQuery = await connectStarted(`/api/changes/stream/?last_event_id=${encodeURIComponent(first.lastEventId)}`);
      await byQuery.waitForChange(missed[2]);
      expect(byQuery.changeIds()).toEqual(missed);
      await disconnect(byQuery);
      const both = await connectStarted(`/api/changes/stream/?cursor=${encodeURIComponent(first.lastEventId)}`, { 'Last-Event-ID': second.events[1].id });
      await both.waitForChange(missed[2]);
      expect(both.changeIds()).toEqual([missed[2]]);
    });

    it('resumes from a position that had no event yet (the first block), and from id__gt', async () => {
      const quiet = await connectStarted('/api/changes/stream/');
      await disconnect(quiet);
      const id = await insertChange(content, 'after the start');
      const resumed = await connectStarted('/api/changes/stream/', { 'Last-Event-ID': quiet.lastEventId });
      await resumed.waitForChange(id);
      expect(resumed.changeIds()).toEqual([id]);
      await disconnect(resumed);
      const next = await insertChange(content, 'after id');
      const byId = await connectStarted(`/api/changes/stream/?id__gt=${id}`);
      await byId.waitForChange(next);
      expect(byId.changeIds()).toEqual([next]);
    });

    (realPostgres ? it : it.skip)('misses nothing and repeats nothing while another connection commits out of id order', async () => {
      // A second data source on the same database: another process writing.
      const writer = new DataSource(buildDataSourceOptions(app.database.url, 3));
      await writer.initialize();
      try {
        const first = await connectStarted('/api/changes/stream/');
        const inserted: number[] = [];
        const write = async (rounds: number): Promise<void> => {
          for (let round = 0; round < rounds; round += 1) {
            const runner = writer.createQueryRunner();
            await runner.connect();
            await runner.startTransaction();
            try {
              // The early id commits after the late one.
              inserted.push(await insertChange(content, `early ${round}`, { runner }));
              inserted.push(await insertChange(content, `late ${round}`, { runner: writer }));
              await runner.commitTransaction();
            } finally {
              await runner.release();
            }
          }
        };
        // The client disconnects and reconnects while the other process is still writing.
        const writing = write(10);
        await first.waitUntil(() => first.changeIds().length >= 4, PATIENCE_MS, 'the first changes');
        await disconnect(first);
        const second = await connectStarted('/api/changes/stream/', { 'Last-Event-ID': first.lastEventId });
        await writing;
        await second.waitUntil(() => first.changeIds().length + second.changeIds().length >= inserted.length, PATIENCE_MS, 'every change');
        const received = [...first.changeIds(), ...second.changeIds()];
        expect(new Set(received).size).toBe(received.length);
        // In feed order: by writing transaction, so each round's early id comes first although it committed last.
        expect(received).toEqual(inserted);
      } finally {
        await writer.destroy();
      }
    });

    it('refuses a Last-Event-ID or cursor that is not a position with 400 JSON', async () => {
      const header = await connect('/api/changes/stream/', { 'Last-Event-ID': 'yesterday' });
      expect(header.status).toBe(400);
      expect(header.headers['content-type']).toBe('application/json');
      expect(header.headers['allow']).toBe('GET, HEAD, OPTIONS');
      expect(await header.json()).toEqual({ detail: 'Invalid Last-Event-ID header.' });
      await app.http().get('/api/changes/stream/?cursor=1.2.3').expect(400, { cursor: ['Invalid cursor'] });
      await app.http().get('/api/changes/stream/?last_event_id=-1.5').expect(400, { last_event_id: ['Invalid cursor'] });
      await app.http().get('/api/changes/stream/?id__gt=abc').expect(400, { id__gt: ['Enter a number.'] });
      await app.http().get('/api/changes/stream/?id__gt=999999999').expect(400, { id__gt: ['No change has this id.'] });
    });
  });

  describe('visibility and filters', () => {
    it('never sends the changes of a project the caller cannot see, and stops when a project turns private', async () => {
      const anonymous = await connectStarted('/api/changes/stream/');
      const user = await connectStarted('/api/changes/stream/', { Authorization: `Token ${member.token}` });
      const superuser = await connectStarted('/api/changes/stream/', admin);
      const hidden = await insertChange(secret, 'hidden');
      const visible = await insertChange(content, 'visible');
      for (const client of [anonymous, user]) {
        await client.waitForChange(visible);
        expect(client.changeIds()).toEqual([visible]);
      }
      await superuser.waitForChange(visible);
      expect(superuser.changeIds()).toEqual([hidden, visible]);
      await disconnect(superuser);

      // Made private while the streams are open: the next batch is read with the new visibility.
      await db.query('UPDATE projects SET access_control = 100 WHERE id = $1', [content.project.id]);
      try {
        const nowHidden = await insertChange(content, 'now hidden');
        const elsewhere = await insertChange(other, 'elsewhere');
        for (const client of [anonymous, user]) {
          await client.waitForChange(elsewhere);
          expect(client.changeIds()).toEqual([visible, elsewhere]);
          expect(client.changeIds()).not.toContain(nowHidden);
        }
      } finally {
        await db.query('UPDATE projects SET access_control = 0 WHERE id = $1', [content.project.id]);
      }
      // The scoped stream of an invisible project is 404, as its list is.
      const scoped = await connect(`/api/projects/${secret.project.slug}/changes/stream/`);
      expect(scoped.status).toBe(404);
      expect(await scoped.json()).toEqual({ detail: 'Not found.' });
    });

    it('filters by scope, action and user like the lists', async () => {
      const translation = await connectStarted(`/api/translations/${content.project.slug}/${content.component.slug}/cs/changes/stream/`);
      const component = await connectStarted(`/api/components/${content.project.slug}/${content.component.slug}/changes/stream/?action=5&action=2`, admin);
      const byUser = await connectStarted(`/api/projects/${content.project.slug}/changes/stream/?user=member`, admin);
      const german = await insertChange(content, 'de', { language: 1 });
      const upstream = await insertChange(content, 'cs 59', { language: 0, action: 59 });
      const elsewhere = await insertChange(secret, 'other project', { language: 0 });
      const czech = await insertChange(content, 'cs 5', { language: 0, userId: member.id });
      await translation.waitForChange(czech);
      expect(translation.changeIds()).toEqual([upstream, czech]);
      await component.waitForChange(czech);
      expect(component.changeIds()).toEqual([german, czech]);
      await byUser.waitForChange(czech);
      expect(byUser.changeIds()).toEqual([czech]);
      expect(elsewhere).toBeGreaterThan(upstream);
      for (const client of [translation, component, byUser]) {
        for (const event of client.events) expect(Object.keys(JSON.parse(event.data) as object)).toEqual(CHANGE_KEYS);
      }
      await app.http().get('/api/changes/stream/?action=999').expect(400, { action: ['Select a valid choice. 999 is not one of the available choices.'] });
      await app.http().get(`/api/components/${content.project.slug}/missing/changes/stream/`).expect(404, { detail: 'Not found.' });
    });

    it('ends the stream when its token stops authenticating', async () => {
      const throwaway = await createUserWithToken(db, 'throwaway');
      const client = await connectStarted('/api/changes/stream/', { Authorization: `Token ${throwaway.token}` });
      const before = await insertChange(content, 'before revocation');
      await client.waitForChange(before);
      await db.query('DELETE FROM api_tokens WHERE user_id = $1', [throwaway.id]);
      await insertChange(content, 'after revocation');
      await client.waitForEnd();
      expect(client.changeIds()).toEqual([before]);
      const refused = await connect('/api/changes/stream/', { Authorization: `Token ${throwaway.token}` });
      expect(refused.status).toBe(401);
    });
  });

  describe('resources', () => {
    it('caps the streams per caller and per process with 429, and frees them on disconnect', async () => {
      const [a, b] = [await connectStarted('/api/changes/stream/', admin), await connectStarted('/api/changes/stream/', admin)];
      const third = await connect('/api/changes/stream/', admin);
      expect(third.status).toBe(429);
      expect(third.headers['content-type']).toBe('application/json');
      expect(await third.json()).toEqual({ detail: 'Too many change streams are open for this caller.' });
      await connectStarted('/api/changes/stream/', { Authorization: `Token ${member.token}` });
      // Three streams open in the process (CHANGE_STREAM_MAX_OPEN): anyone else is refused.
      const anonymous = await connect('/api/changes/stream/');
      expect(anonymous.status).toBe(429);
      expect(await anonymous.json()).toEqual({ detail: 'Too many change streams are open.' });
      expect(streams.openCount).toBe(3);
      await disconnect(a);
      await disconnect(b);
      await connectStarted('/api/changes/stream/', admin);
    });
  });

  describe('cursor on the lists', () => {
    it('walks the history in feed order with `next`, through inserts between pages, in DRF\'s cursor envelope', async () => {
      const all = [] as number[];
      let url: string | null = `/api/changes/?id__gt=0&page_size=3`;
      let inserted = 0;
      const added: number[] = [];
      const deadline = Date.now() + PATIENCE_MS;
      while (url !== null) {
        const response: { body: { next: string | null; previous: null; results: Array<Record<string, unknown>> } } & Parameters<typeof expectApiHeaders>[0] =
          await app.http().get(url).expect(200);
        expectApiHeaders(response, 'GET, HEAD, OPTIONS');
        expect(Object.keys(response.body)).toEqual(['next', 'previous', 'results']);
        expect(response.body.previous).toBeNull();
        for (const change of response.body.results as Array<Record<string, unknown>>) {
          expect(Object.keys(change)).toEqual(CHANGE_KEYS);
          all.push(change.id as number);
        }
        if (response.body.results.length === 0) {
          expect(response.body.next).toBeNull();
          // A change added between pages is handed out once every older transaction has ended (the feed's
          // horizon): until the walk has them all, ask the same page again.
          if (added.every((id) => all.includes(id))) url = null;
          else if (Date.now() > deadline) throw new Error(`the cursor walk never reached ${added.join(', ')}`);
          else await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        expect(response.body.next).toMatch(new RegExp(`^${origin}/api/changes/\\?cursor=\\d+\\.\\d+&format=api&page_size=3$`));
        // New changes between pages neither shift the pages nor get lost.
        if (inserted < 2) {
          added.push(await insertChange(content, `between pages ${inserted}`));
          inserted += 1;
        }
        url = new URL(response.body.next as string).pathname + new URL(response.body.next as string).search;
      }
      const everything = (await app.http().get('/api/changes/?page_size=1000').expect(200)).body.results.map((change: { id: number }) => change.id);
      expect(new Set(all).size).toBe(all.length);
      expect([...all].sort((a, b) => a - b)).toEqual(everything);
      for (const id of added) expect(all).toContain(id);
    });

    it('applies the scope and filters, resumes from a stream event id, and refuses bad cursors', async () => {
      const client = await connectStarted('/api/changes/stream/');
      const first = await insertChange(content, 'cursor a', { language: 0 });
      const second = await insertChange(content, 'cursor b', { language: 1 });
      const third = await insertChange(content, 'cursor c', { language: 0 });
      await client.waitForChange(third);
      const token = client.events[0].id;
      const page = await app.http().get(`/api/changes/?cursor=${encodeURIComponent(token)}`).expect(200);
      expect(page.body.results.map((change: { id: number }) => change.id)).toEqual([second, third]);
      const scoped = await app.http().get(`/api/translations/${content.project.slug}/${content.component.slug}/cs/changes/?cursor=${encodeURIComponent(token)}`).expect(200);
      expect(scoped.body.results.map((change: { id: number }) => change.id)).toEqual([third]);
      const byId = await app.http().get(`/api/changes/?id__gt=${first}&action=5&page_size=1`).expect(200);
      expect(byId.body.results.map((change: { id: number }) => change.id)).toEqual([second]);
      expect(byId.body.next).toBe(`${origin}/api/changes/?action=5&cursor=${encodeURIComponent(client.events[1].id)}&format=api&page_size=1`);
      const end = await app.http().get(`/api/changes/?cursor=${encodeURIComponent(client.events[2].id)}`).expect(200);
      expect(end.body).toEqual({ next: null, previous: null, results: [] });
      const invalid = await app.http().get('/api/changes/?cursor=abc').expect(400);
      expectApiHeaders(invalid, 'GET, HEAD, OPTIONS');
      expect(invalid.body).toEqual({ cursor: ['Invalid cursor'] });
      await app.http().get('/api/changes/?id__gt=1x').expect(400, { id__gt: ['Enter a number.'] });
      // Scope before cursor, as before filters: 404 first.
      await app.http().get('/api/projects/missing/changes/?cursor=abc').expect(404);
      // Invisible changes never appear on a cursor walk either.
      const hidden = await insertChange(secret, 'hidden from the cursor');
      // The feed hands a change out once every older transaction has ended (the app's own feed consumers
      // run short ones): wait until the superuser's walk has it, then the anonymous walk must not.
      const cursorIds = async (headers: [string, string][]): Promise<number[]> => {
        let request = app.http().get(`/api/changes/?cursor=${encodeURIComponent(client.events[2].id)}`);
        for (const [name, value] of headers) request = request.set(name, value);
        return ((await request.expect(200)).body.results as Array<{ id: number }>).map((change) => change.id);
      };
      await eventually(async () => ((await cursorIds([authHeader(TEST_ADMIN_TOKEN)])).includes(hidden) ? true : undefined), PATIENCE_MS, 'the hidden change on the superuser walk');
      expect(await cursorIds([])).not.toContain(hidden);
    });
  });
});

describe('change stream shutdown', () => {
  it('ends open streams when the process stops, so the graceful shutdown does not wait for them', async () => {
    // A shutdown that waited for the stream would hang far beyond the test's own timeout.
    const app = await createTestApp({ SHUTDOWN_TIMEOUT_SECONDS: '3600' });
    const origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    const client = await SseClient.connect(`${origin}/api/changes/stream/`);
    expect(client.status).toBe(200);
    await client.waitUntil(() => client.lastEventId !== '', PATIENCE_MS, 'the starting position');
    const closing = app.close();
    await client.waitForEnd();
    await closing;
  });
});
