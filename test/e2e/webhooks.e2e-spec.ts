import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { ANY_HOST, PUBLIC_HOSTS_ONLY } from '../../src/common/net/host-policy';
import { createTranslatedComponent, type SeededContent } from '../support/content-factories';
import { authHeader, expectApiHeaders } from '../support/contract';
import { withClient } from '../support/database-server';
import { createComponent } from '../support/factories';
import { compileServer, eventually, freePort, ServerProcess } from '../support/server-process';
import { WebhookLogPruner } from '../../src/modules/addons/webhook-log-pruner';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { createUserWithToken } from '../support/users-factories';
import { PATIENCE_MS } from '../support/wait';

// Outgoing webhooks (issue 14 item 2; integration.md §2.2–§2.4, §3): the add-ons API, and deliveries to a real
// HTTP receiver on 127.0.0.1 (allowed by WEBHOOK_RESTRICT_PRIVATE=false) that verifies each signature with the
// Standard Webhooks algorithm written out here, independently of Glossa's signer.

const admin = authHeader(TEST_ADMIN_TOKEN);
const SECRET = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const ADDON_KEYS = ['component', 'project', 'name', 'id', 'configuration', 'url'];
const DELIVERY_KEYS = ['id', 'change', 'webhook_id', 'state', 'attempts', 'status_code', 'duration_ms', 'error', 'response', 'created', 'last_attempt', 'next_attempt'];
const WAIT_MS = PATIENCE_MS;

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
  json: Record<string, unknown>;
}

/** A webhook receiver: records every request; `answers` gives the status of the next requests (then 200). */
class Receiver {
  readonly requests: Received[] = [];
  answers: Array<number | { status: number; headers: Record<string, string> }> = [];
  /** Decides the status by the request instead, when set (undefined: fall back to `answers`). */
  respond: ((json: Record<string, unknown>) => number | undefined) | undefined;
  private server: Server | undefined;
  port = 0;

  async start(port = 0): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        this.requests.push({ headers: request.headers, body, json: JSON.parse(body.toString('utf8')) });
        const answer = this.respond?.(this.requests[this.requests.length - 1].json) ?? this.answers.shift() ?? 200;
        const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
        response.writeHead(status, { 'content-type': 'text/plain', ...headers });
        response.end(status < 300 ? 'ok' : 'nope');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async waitFor(count: number, what: string): Promise<Received[]> {
    return eventually(async () => (this.requests.length >= count ? this.requests.slice() : undefined), WAIT_MS, what);
  }
}

/** Standard Webhooks verification (spec 1.0.0), as a receiver would write it. */
function verifySignature(secret: string, received: Received): boolean {
  const id = received.headers['webhook-id'] as string;
  const timestamp = received.headers['webhook-timestamp'] as string;
  const signatures = (received.headers['webhook-signature'] as string | undefined) ?? '';
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), received.body])).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('webhook add-ons', () => {
  let app: TestApp;
  let db: DataSource;
  let content: SeededContent;
  let receiver: Receiver;
  let viewer: { token: string };

  beforeAll(async () => {
    app = await createTestApp({ WEBHOOK_RESTRICT_PRIVATE: 'false', WEBHOOK_RETRY_DELAYS: '0.3,0.3,0.3', WEBHOOK_TIMEOUT_SECONDS: '5' });
    db = app.glossa.app.get(DataSource);
    content = await createTranslatedComponent(db, { project: { slug: 'hooked', name: 'Hooked' }, component: { slug: 'app', name: 'App' } });
    viewer = await createUserWithToken(db, 'viewer');
    receiver = new Receiver();
    await receiver.start();
  });

  afterAll(async () => {
    await receiver?.stop();
    await app?.close();
  });

  afterEach(async () => {
    app.config.webhooks.hosts = ANY_HOST;
    receiver.respond = undefined;
    receiver.answers = [];
    // A failed test leaves no add-on behind to deliver into the next one.
    await db.query('DELETE FROM addons');
  });

  const install = async (scope: string, configuration: Record<string, unknown>, token = admin): Promise<Record<string, unknown>> =>
    (await app.http().post(`/api/${scope}/addons/`).set(...token).send({ name: 'weblate.webhook.webhook', configuration }).expect(201)).body;

  const insertChange = async (action: number, componentId: number, target = ''): Promise<string> => {
    const [row]: Array<{ id: string }> = await db.query(
      'INSERT INTO changes (action, project_id, component_id, target) VALUES ($1, $2, $3, $4) RETURNING id::text AS id',
      [action, content.project.id, componentId, target],
    );
    return row.id;
  };

  const deliveries = async (addonId: unknown): Promise<Array<Record<string, unknown>>> =>
    (await app.http().get(`/api/addons/${addonId}/deliveries/`).set(...admin).expect(200)).body.results;

  const uninstall = (id: unknown) => app.http().delete(`/api/addons/${id}/`).set(...admin).expect(204);

  it('installs, reads, updates and removes add-ons with Weblate’s shapes', async () => {
    const created = await app
      .http()
      .post('/api/components/hooked/app/addons/')
      .set(...admin)
      .send({ name: 'weblate.webhook.webhook', configuration: { webhook_url: 'http://127.0.0.1:9/x', secret: SECRET, events: [2, '5'] } })
      .expect(201);
    expectApiHeaders(created, 'POST, OPTIONS');
    expect(Object.keys(created.body)).toEqual(ADDON_KEYS);
    const id = created.body.id as number;
    const origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as AddressInfo).port}`;
    expect(created.body).toEqual({
      component: `${origin}/api/components/hooked/app/?format=api`,
      project: null,
      name: 'weblate.webhook.webhook',
      id,
      configuration: { webhook_url: 'http://127.0.0.1:9/x', secret: 'whsec_AAEC***', events: ['2', '5'] },
      url: `${origin}/api/addons/${id}/?format=api`,
    });

    // The component lists its add-ons (`addons`, weblate-api.md §6.7), also where it is embedded.
    expect((await app.http().get('/api/components/hooked/app/').set(...admin).expect(200)).body.addons).toEqual([created.body.url]);
    expect((await app.http().get('/api/translations/hooked/app/cs/').set(...admin).expect(200)).body.component.addons).toEqual([created.body.url]);
    const detail = await app.http().get(`/api/addons/${id}/`).set(...admin).expect(200);
    expectApiHeaders(detail, 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    expect(detail.body).toEqual(created.body);
    const list = await app.http().get('/api/addons/').set(...admin).expect(200);
    expectApiHeaders(list, 'GET, HEAD, OPTIONS');
    expect(list.body).toMatchObject({ count: 1, next: null, previous: null });
    expect(list.body.results).toEqual([created.body]);

    // A GET body sent back keeps the secret; the history records 60 and 61.
    const replaced = await app.http().put(`/api/addons/${id}/`).set(...admin).send({ ...detail.body, configuration: { ...detail.body.configuration, events: [2] } }).expect(200);
    expect(replaced.body.configuration).toEqual({ webhook_url: 'http://127.0.0.1:9/x', secret: 'whsec_AAEC***', events: ['2'] });
    const [stored]: Array<{ configuration: Record<string, unknown> }> = await db.query('SELECT configuration FROM addons WHERE id = $1', [id]);
    expect(stored.configuration.secret).toBe(SECRET);
    const patched = await app.http().patch(`/api/addons/${id}/`).set(...admin).send({ configuration: { events: ['5'] } }).expect(200);
    expect(patched.body.configuration).toEqual({ webhook_url: 'http://127.0.0.1:9/x', secret: 'whsec_AAEC***', events: ['5'] });
    const history = await app.http().get('/api/components/hooked/app/changes/?action=60&action=61').set(...admin).expect(200);
    expect(history.body.results.map((change: { action: number }) => change.action)).toEqual([60, 61, 61]);

    const project = await app.http().post('/api/projects/hooked/addons/').set(...admin).send({ name: 'weblate.webhook.webhook', configuration: { webhook_url: 'https://example.org/h' } }).expect(201);
    expect(project.body).toMatchObject({ component: null, project: `${origin}/api/projects/hooked/?format=api`, configuration: { webhook_url: 'https://example.org/h', secret: '', events: [] } });

    await uninstall(id);
    await app.http().get(`/api/addons/${id}/`).set(...admin).expect(404);
    await uninstall(project.body.id);
    expect((await app.http().get('/api/addons/').set(...admin).expect(200)).body.count).toBe(0);
    expect((await app.http().get('/api/components/hooked/app/').set(...admin).expect(200)).body.addons).toEqual([]);
  });

  it('answers Weblate’s errors and changes nothing', async () => {
    const post = (body: unknown, token = admin) => app.http().post('/api/components/hooked/app/addons/').set(...token).send(body as object);
    expect((await post({ name: 'weblate.gettext.linguas' }).expect(400)).body).toEqual({ name: ['Addon not found: weblate.gettext.linguas'] });
    expect((await post({ configuration: {} }).expect(400)).body).toEqual({ name: ['This field is required.'] });
    expect((await post({ name: 'weblate.webhook.webhook', configuration: { webhook_url: 'https://example.org/', secret: 'c2hvcnQ=' } }).expect(400)).body).toEqual({
      configuration: ['Error in secret: The secret must decode to 24 to 64 bytes, not 5.'],
    });
    expect((await post({ name: 'weblate.webhook.webhook', configuration: { webhook_url: 'file:///etc/passwd' } }).expect(400)).body).toEqual({
      configuration: ['Error in webhook_url: Only http and https URLs are allowed.'],
    });
    expect((await post({ name: 'weblate.webhook.webhook', configuration: { webhook_url: 'https://example.org/', events: [1000] } }).expect(400)).body).toEqual({
      configuration: ['Error in events: Select a valid choice. 1000 is not one of the available choices.'],
    });
    expect((await post([]).expect(400)).body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
    // Anonymous: 401; a user who sees the project but may not edit it: 403, and the add-ons stay invisible to them.
    await app.http().post('/api/components/hooked/app/addons/').send({ name: 'weblate.webhook.webhook' }).expect(401);
    expect((await post({ name: 'weblate.webhook.webhook', configuration: {} }, authHeader(viewer.token)).expect(403)).body).toEqual({ detail: 'Can not create addon' });
    expect((await app.http().post('/api/projects/hooked/addons/').set(...authHeader(viewer.token)).send({}).expect(403)).body).toEqual({ detail: 'Can not create addon' });
    await app.http().post('/api/components/hooked/missing/addons/').set(...admin).send({}).expect(404);
    expect((await app.http().get('/api/addons/').set(...admin).expect(200)).body.count).toBe(0);

    const addon = await install('components/hooked/app', { webhook_url: 'https://example.org/' });
    const asViewer = authHeader(viewer.token);
    await app.http().get(`/api/addons/${addon.id}/`).set(...asViewer).expect(404);
    await app.http().get(`/api/addons/${addon.id}/deliveries/`).set(...asViewer).expect(404);
    await app.http().delete(`/api/addons/${addon.id}/`).set(...asViewer).expect(404);
    await app.http().get(`/api/addons/${addon.id}/`).expect(404);
    expect((await app.http().get('/api/addons/').set(...asViewer).expect(200)).body.count).toBe(0);
    expect((await app.http().put(`/api/addons/${addon.id}/`).set(...admin).send({ name: 'weblate.webhook.slack' }).expect(400)).body).toEqual({
      name: ['Can not change addon name'],
    });
    await app.http().get('/api/addons/999999/').set(...admin).expect(404);
    await app.http().get('/api/addons/x/').set(...admin).expect(404);
    await app.http().post('/api/addons/').set(...admin).send({}).expect(405);
    await uninstall(addon.id);
  });

  it('refuses private targets when the setting is off, when saving and when delivering', async () => {
    app.config.webhooks.hosts = PUBLIC_HOSTS_ONLY;
    for (const url of [receiver.url, 'http://localhost/x', 'http://[::1]/x', 'http://169.254.169.254/latest/meta-data/', 'http://10.0.0.1/']) {
      const response = await app.http().post('/api/components/hooked/app/addons/').set(...admin).send({ name: 'weblate.webhook.webhook', configuration: { webhook_url: url } });
      expect([url, response.status, response.body]).toEqual([url, 400, { configuration: [expect.stringMatching(/^Error in webhook_url: The URL points to a private/)] }]);
    }
    // Saved while allowed, refused at delivery once the setting is back on (DNS may change between the two).
    app.config.webhooks.hosts = ANY_HOST;
    const addon = await install('components/hooked/app', { webhook_url: receiver.url, events: [2] });
    app.config.webhooks.hosts = PUBLIC_HOSTS_ONLY;
    const before = receiver.requests.length;
    await insertChange(2, content.component.id);
    // At least one attempt, not exactly one: with this file's 0.3 s retry schedule a loaded machine may retry
    // (and refuse again) before the log is read. Every attempt is refused before a connection is made.
    const [delivery] = await eventually(async () => {
      const log = await deliveries(addon.id);
      return log.length === 1 && Number(log[0].attempts) >= 1 && log[0].status_code === null && log[0].error !== '' ? log : undefined;
    }, WAIT_MS, 'a refused delivery attempt');
    expect(delivery.error).toMatch(/^The URL points to a private/);
    expect(receiver.requests.length).toBe(before);
    await uninstall(addon.id);
  });

  it('delivers a signed change that verifies with the Standard Webhooks algorithm', async () => {
    const addon = await install('components/hooked/app', { webhook_url: receiver.url, secret: SECRET, events: [2, 5] });
    receiver.requests.length = 0;
    const unitId = content.translations.find((t) => t.languageCode === 'cs')!.unitIds[1];
    await app.http().patch(`/api/units/${unitId}/`).set(...admin).send({ target: ['Nový text'], state: 20 }).expect(200);
    const [received] = await receiver.waitFor(1, 'the delivery');
    expect(verifySignature(SECRET, received)).toBe(true);
    expect(verifySignature('whsec_' + Buffer.alloc(32, 1).toString('base64'), received)).toBe(false);
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['user-agent']).toMatch(/^Glossa\//);
    expect(received.headers['webhook-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(received.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    // Compact JSON: the bytes are what JSON.stringify writes for the object.
    expect(received.body.toString()).toBe(JSON.stringify(received.json));
    expect(Object.keys(received.json)).toEqual(['change_id', 'action', 'timestamp', 'target', 'source', 'url', 'author', 'user', 'project', 'component', 'translation']);
    expect(received.json).toMatchObject({
      action: expect.stringMatching(/^(Translation changed|New translation)$/),
      target: ['Nový text'],
      source: [content.strings[1].source],
      url: expect.stringMatching(/^\/translate\/hooked\/app\/cs\/\?checksum=[0-9a-f]{16}$/),
      author: 'admin',
      user: 'admin',
      project: 'hooked',
      component: 'app',
      translation: 'cs',
    });
    expect(received.json.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);

    // The receiver has the request before the sender has read the answer and recorded it.
    await eventually(async () => ((await deliveries(addon.id))[0]?.state === 'delivered' ? true : undefined), WAIT_MS, 'the delivery recorded');
    const log = await app.http().get(`/api/addons/${addon.id}/deliveries/`).set(...admin).expect(200);
    expectApiHeaders(log, 'GET, HEAD, OPTIONS');
    expect(log.body.count).toBe(1);
    const [entry] = log.body.results;
    expect(Object.keys(entry)).toEqual(DELIVERY_KEYS);
    expect(entry).toMatchObject({
      change: expect.stringMatching(new RegExp(`/api/changes/${received.json.change_id}/\\?format=api$`)),
      webhook_id: received.headers['webhook-id'],
      state: 'delivered',
      attempts: 1,
      status_code: 200,
      duration_ms: expect.any(Number),
      error: '',
      response: 'ok',
      next_attempt: null,
    });
    expect(entry.last_attempt).toMatch(/Z$/);
    await uninstall(addon.id);
  });

  it('retries after a 500 and a 503 with Retry-After, with the same webhook-id, then succeeds', async () => {
    const addon = await install('components/hooked/app', { webhook_url: receiver.url, secret: SECRET, events: [2] });
    receiver.requests.length = 0;
    receiver.answers = [500, { status: 503, headers: { 'retry-after': '1' } }];
    const changeId = await insertChange(2, content.component.id, 'retried');
    const received = await receiver.waitFor(3, 'two failures and a success');
    expect(received.map((r) => r.json.change_id)).toEqual([Number(changeId), Number(changeId), Number(changeId)]);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(received.every((r) => verifySignature(SECRET, r))).toBe(true);
    const [entry] = await eventually(async () => {
      const log = await deliveries(addon.id);
      return log[0]?.state === 'delivered' ? log : undefined;
    }, WAIT_MS, 'the delivery recorded');
    expect(entry).toMatchObject({ attempts: 3, status_code: 200, error: '' });
    await uninstall(addon.id);
  });

  it('keeps change order per component while a delivery is retried, and gives up after the schedule', async () => {
    const other = await createComponent(db, content.project, { slug: 'other', name: 'Other', sourceLanguageId: content.component.sourceLanguageId });
    const addon = await install('projects/hooked', { webhook_url: receiver.url, events: [2] });
    receiver.requests.length = 0;
    // The first change of `app` fails twice; the later ones of `app` wait for it, `other` does not.
    let failuresLeft = 2;
    let first = '';
    receiver.respond = (json) => (String(json.change_id) === first && failuresLeft-- > 0 ? 500 : 200);
    first = await insertChange(2, content.component.id, 'a1');
    await receiver.waitFor(1, 'the first attempt');
    const rest = [await insertChange(2, content.component.id, 'a2'), await insertChange(2, other.id, 'b1'), await insertChange(2, content.component.id, 'a3')];
    const received = await receiver.waitFor(6, 'every change delivered');
    const ofApp = received.filter((r) => r.json.component === 'app').map((r) => String(r.json.change_id));
    expect(ofApp).toEqual([first, first, first, rest[0], rest[2]]);
    expect(received.filter((r) => r.json.component === 'other').map((r) => String(r.json.change_id))).toEqual([rest[1]]);

    // Past the schedule (1 + 3 attempts) a delivery is given up, and the next one goes.
    receiver.requests.length = 0;
    let doomed = '';
    receiver.respond = (json) => (String(json.change_id) === doomed ? 500 : 200);
    doomed = await insertChange(2, content.component.id, 'doomed');
    const after = await insertChange(2, content.component.id, 'after');
    const final = await receiver.waitFor(5, 'four failed attempts and the next change');
    expect(final.map((r) => String(r.json.change_id))).toEqual([doomed, doomed, doomed, doomed, after]);
    const log = await eventually(async () => {
      const entries = await deliveries(addon.id);
      return entries[0]?.state === 'delivered' ? entries : undefined;
    }, WAIT_MS, 'the log');
    expect(log.find((entry) => String(entry.change).includes(`/changes/${doomed}/`))).toMatchObject({ state: 'failed', attempts: 4, status_code: 500 });
    await uninstall(addon.id);
  });

  it('leaves restricted components out of project-wide add-ons, and bounds add-ons per scope', async () => {
    const restricted = await createComponent(db, content.project, { slug: 'restricted', name: 'Restricted', restricted: true, sourceLanguageId: content.component.sourceLanguageId });
    const addon = await install('projects/hooked', { webhook_url: receiver.url, events: [2] });
    receiver.requests.length = 0;
    const hidden = await insertChange(2, restricted.id, 'hidden');
    const shown = await insertChange(2, content.component.id, 'shown');
    const received = await receiver.waitFor(1, 'the unrestricted change');
    // The feed hands changes out in order: once the later change was queued, the earlier one had been seen.
    expect(received.map((r) => String(r.json.change_id))).toEqual([shown]);
    expect(await db.query('SELECT 1 FROM webhook_deliveries WHERE change_id = $1', [hidden])).toEqual([]);
    await uninstall(addon.id);

    for (let i = 0; i < 10; i++) await install('components/hooked/app', { webhook_url: 'https://example.org/' });
    const refused = await app.http().post('/api/components/hooked/app/addons/').set(...admin).send({ name: 'weblate.webhook.webhook', configuration: { webhook_url: 'https://example.org/' } }).expect(400);
    expect(refused.body).toEqual({ name: ['Can not install more than 10 add-ons here: weblate.webhook.webhook'] });
    // Another scope has its own bound.
    await install('projects/hooked', { webhook_url: 'https://example.org/' });
  });

  it('stops delivering to an add-on whose receiver answers 410 Gone', async () => {
    const addon = await install('components/hooked/app', { webhook_url: receiver.url, events: [2] });
    receiver.requests.length = 0;
    receiver.answers = [410];
    await insertChange(2, content.component.id, 'gone');
    await receiver.waitFor(1, 'the 410');
    const [entry] = await eventually(async () => {
      const log = await deliveries(addon.id);
      return log[0]?.state === 'failed' ? log : undefined;
    }, WAIT_MS, 'the failure recorded');
    expect(entry.error).toMatch(/410 Gone/);
    const [row]: Array<{ disabled: boolean }> = await db.query('SELECT disabled_at IS NOT NULL AS disabled FROM addons WHERE id = $1', [addon.id]);
    expect(row.disabled).toBe(true);
    // Saving the configuration resumes delivery.
    await app.http().patch(`/api/addons/${addon.id}/`).set(...admin).send({}).expect(200);
    const resumed = await insertChange(2, content.component.id, 'resumed');
    const received = await receiver.waitFor(2, 'delivery after re-enabling');
    expect(String(received[1].json.change_id)).toBe(resumed);
    await uninstall(addon.id);
  });

  it('prunes finished deliveries past WEBHOOK_LOG_RETENTION_DAYS and keeps pending and recent ones', async () => {
    const addon = await install('components/hooked/app', { webhook_url: receiver.url, events: [2] });
    receiver.requests.length = 0;
    const changes = [];
    for (const target of ['old delivered', 'old failed', 'old pending', 'recent delivered']) changes.push(await insertChange(2, content.component.id, target));
    await receiver.waitFor(4, 'four deliveries');
    await eventually(async () => ((await deliveries(addon.id)).every((entry) => entry.state === 'delivered') ? true : undefined), WAIT_MS, 'all recorded');
    // The daily prune job finds nothing meanwhile, should the test run at its hour: it would take the aged rows
    // before the test's own call.
    const pruner = app.glossa.app.get(WebhookLogPruner);
    const prune = pruner.prune.bind(pruner);
    pruner.prune = () => Promise.resolve(0);
    const age = (changeId: string, state: string, days: number) =>
      db.query(`UPDATE webhook_deliveries SET state = $2, last_attempt_at = now() - $3 * interval '1 day', created = now() - $3 * interval '1 day' WHERE change_id = $1`, [changeId, state, days]);
    await age(changes[0], 'delivered', 31);
    await age(changes[1], 'failed', 45);
    // A pending delivery is the queue, whatever its age (its next attempt is far off, so the sender leaves it).
    await db.query(`UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = now() + interval '1 day', created = now() - interval '90 days', last_attempt_at = NULL WHERE change_id = $1`, [changes[2]]);
    await age(changes[3], 'delivered', 29);
    expect(await prune()).toBe(2);
    const left: Array<{ change_id: string }> = await db.query('SELECT change_id::text AS change_id FROM webhook_deliveries WHERE addon_id = $1 ORDER BY id', [addon.id]);
    expect(left.map((row) => row.change_id)).toEqual([changes[2], changes[3]]);
    expect((await deliveries(addon.id)).length).toBe(2);
    pruner.prune = prune;
    await uninstall(addon.id);
  });
});

const realPostgres = Boolean(process.env.GLOSSA_TEST_SERVER_URL);

(realPostgres ? describe : describe.skip)('webhook delivery across SIGKILL', () => {
  let database: TestDatabase;
  let dataDir: string;
  let receiver: Receiver;
  const servers: ServerProcess[] = [];
  const headers = { Authorization: `Token ${TEST_ADMIN_TOKEN}`, 'Content-Type': 'application/json' };

  beforeAll(async () => {
    await compileServer();
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'glossa-webhooks-'));
    receiver = new Receiver();
  }, 300_000);

  afterAll(async () => {
    for (const server of servers) await server.kill();
    await receiver?.stop();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function startServer(): Promise<ServerProcess> {
    const server = new ServerProcess(await freePort(), {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      DEMO: 'false',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SITE_URL: 'http://glossa.test',
      JOB_POLLING_SECONDS: '0.5',
      RATE_LIMIT_USER: '1000000/hour',
      WEBHOOK_RESTRICT_PRIVATE: 'false',
      WEBHOOK_RETRY_DELAYS: '0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5',
      // A delivery leased by the killed process is taken again when its lease (timeout + 30 s) runs out.
      WEBHOOK_TIMEOUT_SECONDS: '2',
    });
    servers.push(server);
    await server.start();
    return server;
  }

  const sql = <T>(query: string, params: unknown[] = []): Promise<T[]> =>
    withClient(database.url, async (client) => (await client.query(query, params)).rows as T[]);

  it('delivers a change made before the kill once the server is back', async () => {
    // The receiver's port is fixed before it listens: the first deliveries fail (connection refused).
    receiver.port = await freePort();
    const first = await startServer();
    const post = async (pathname: string, body: unknown, expected: number): Promise<Record<string, unknown>> => {
      const response = await first.fetch(pathname, { method: 'POST', headers, body: JSON.stringify(body) });
      expect([pathname, response.status]).toEqual([pathname, expected]);
      return (await response.json()) as Record<string, unknown>;
    };
    await post('/api/projects/', { name: 'Killed', slug: 'killed', web: 'https://example.org/' }, 201);
    const addon = await post('/api/projects/killed/addons/', { name: 'weblate.webhook.webhook', configuration: { webhook_url: receiver.url, secret: SECRET, events: [2, 60] } }, 201);
    // Installing recorded 60 "Add-on installed" on the project: wait until the server queued its delivery and
    // failed to reach the receiver at least once, then kill it.
    await eventually(async () => {
      const rows = await sql<{ attempts: number }>('SELECT attempts FROM webhook_deliveries WHERE addon_id = $1', [addon.id]);
      return rows[0]?.attempts >= 1 ? rows : undefined;
    }, WAIT_MS, 'a failed attempt');
    expect(await first.kill()).toBe('SIGKILL');
    // A change written while no server runs: the next process finds it in the feed.
    const [{ id: project }] = await sql<{ id: number }>(`SELECT id FROM projects WHERE slug = 'killed'`);
    const [{ id: offline }] = await sql<{ id: string }>(`INSERT INTO changes (action, project_id) VALUES (2, $1) RETURNING id::text AS id`, [project]);
    await receiver.start(receiver.port);
    await startServer();
    const received = await eventually(async () => (receiver.requests.length >= 2 ? receiver.requests.slice() : undefined), PATIENCE_MS, 'both deliveries after the restart');
    const ids = received.map((r) => r.json.change_id);
    expect(ids).toContain(Number(offline));
    expect(received.map((r) => r.json.action)).toEqual(['Add-on installed', 'Translation changed']);
    expect(received.every((r) => verifySignature(SECRET, r))).toBe(true);
    // Project changes go out in change order (one add-on, no component).
    expect(ids).toEqual([...ids].sort((a, b) => Number(a) - Number(b)));
  }, 300_000);
});
