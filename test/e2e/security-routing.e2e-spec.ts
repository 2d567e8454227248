import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { authHeader } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// Issue 10, item 4 and parts of item 10: the HTTP front. A path in another casing, with a doubled slash, an
// encoded slash or a dot segment must never reach a handler past the guards (Weblate's Django URLs are
// case-sensitive and exact); NUL bytes, huge page numbers and deeply nested JSON are 4xx, never 500; API
// links do not follow a forged Host header in production; /metrics is not public in production.

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: unknown;
}

/**
 * One request with the path sent byte for byte as given: supertest would normalise `/./`, `//` and
 * percent-escapes through the URL parser, which is exactly what the attacks rely on the server not doing.
 */
function raw(app: TestApp, method: string, rawPath: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  const { port } = app.glossa.app.getHttpServer().address() as { port: number };
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path: rawPath, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = text === '' ? undefined : JSON.parse(text);
        } catch {
          parsed = text;
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body: parsed });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

const NOT_FOUND = { detail: 'Not found.' };
const INVALID_PAGE = { detail: 'Invalid page.' };

/** The 404 every refused path variant answers: DRF body, the contract headers and the rate-limit headers. */
function expectRefused(label: string, response: RawResponse): void {
  expect({ label, status: response.status, body: response.body }).toEqual({ label, status: 404, body: NOT_FOUND });
  expect({ label, type: response.headers['content-type'], vary: response.headers['vary'] }).toEqual({ label, type: 'application/json', vary: 'Accept' });
  expect({ label, limited: typeof response.headers['x-ratelimit-limit'] }).toEqual({ label, limited: 'string' });
}

/** A deterministic generator (mulberry32), so a failing variant can be reproduced from the test output. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every letter of `text` upper- or lower-cased at random; retried until it differs from `text`. */
function randomCase(text: string, random: () => number): string {
  if (!/[a-z]/i.test(text)) return text;
  for (;;) {
    const changed = [...text].map((c) => (random() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');
    if (changed !== text) return changed;
  }
}

/**
 * The variants of a canonical path an attacker would try: other casings (whole path, the `/api` prefix, one
 * static segment, random per segment), the trailing slash toggled, doubled slashes, encoded slashes, dot
 * segments and escaped letters. Each is [name, path].
 */
function pathVariants(canonical: string, random: () => number): Array<[string, string]> {
  const segments = canonical.split('/');
  const variants: Array<[string, string]> = [];
  variants.push(['upper-case path', canonical.toUpperCase()]);
  if (canonical.startsWith('/api')) variants.push(['upper-case prefix', `/API${canonical.slice(4)}`]);
  else variants.push(['upper-case first segment', `/${segments[1].toUpperCase()}${canonical.slice(segments[1].length + 1)}`]);
  for (let round = 0; round < 3; round++) {
    variants.push([`random case per segment #${round}`, segments.map((segment) => randomCase(segment, random)).join('/')]);
  }
  segments.forEach((segment, index) => {
    if (!/[a-z]/.test(segment)) return;
    const capitalised = [...segments];
    capitalised[index] = segment.charAt(0).toUpperCase() + segment.slice(1);
    if (capitalised[index] !== segment) variants.push([`capitalised segment ${index}`, capitalised.join('/')]);
  });
  variants.push(canonical.endsWith('/') ? ['without trailing slash', canonical.slice(0, -1)] : ['with trailing slash', `${canonical}/`]);
  variants.push(['doubled trailing slash', canonical.endsWith('/') ? `${canonical}/` : `${canonical}//`]);
  variants.push(['doubled leading slash', `/${canonical}`]);
  variants.push(['doubled inner slash', canonical.replace('/', '//').replace(/^\/\/\//, '//')]);
  const secondSlash = canonical.indexOf('/', 1);
  if (secondSlash > 0) {
    variants.push(['doubled slash after first segment', `${canonical.slice(0, secondSlash)}/${canonical.slice(secondSlash)}`]);
    variants.push(['encoded slash %2F', `${canonical.slice(0, secondSlash)}%2F${canonical.slice(secondSlash + 1)}`]);
    variants.push(['encoded slash %2f', `${canonical.slice(0, secondSlash)}%2f${canonical.slice(secondSlash + 1)}`]);
    variants.push(['dot segment', `${canonical.slice(0, secondSlash)}/.${canonical.slice(secondSlash)}`]);
    variants.push(['dot-dot segment', `${canonical.slice(0, secondSlash)}/x/..${canonical.slice(secondSlash)}`]);
  }
  variants.push(['leading dot segment', `/.${canonical}`]);
  variants.push(['escaped first letter', `/%${segments[1].charCodeAt(0).toString(16)}${canonical.slice(2)}`]);
  variants.push(['escaped upper-case first letter', `/%${segments[1].toUpperCase().charCodeAt(0).toString(16)}${canonical.slice(2)}`]);
  variants.push(['trailing semicolon', canonical.endsWith('/') ? `${canonical.slice(0, -1)};/` : `${canonical};`]);
  return variants;
}

describe('security: routing, guards and request parsing', () => {
  let app: TestApp;
  let ds: DataSource;
  let secret: SeededContent;
  let pub: SeededContent;
  let secretTask: string;
  let secretChange: string;
  let secretAddon: string;
  let groupId: number;
  let roleId: number;
  let subscriptionId: number;
  let secretSuggestion: string;
  let secretComment: string;
  let secretLabel: string;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    secret = await createTranslatedComponent(ds, { project: { name: 'Secret', slug: 'secret', accessControl: 100 }, component: { name: 'Hidden', slug: 'hidden' } });
    pub = await createTranslatedComponent(ds, { project: { name: 'Public', slug: 'pub' }, component: { name: 'Main', slug: 'main' }, units: 3 });
    secretTask = randomUUID();
    await ds.query(`INSERT INTO tasks (id, kind, component_id, status, progress, log) VALUES ($1, 'component-import', $2, 'completed', 100, 'cloned secret.git')`, [
      secretTask,
      secret.component.id,
    ]);
    [{ id: secretChange }] = await ds.query(`SELECT id::text FROM changes WHERE project_id = $1 ORDER BY id LIMIT 1`, [secret.project.id]);
    [{ id: secretAddon }] = await ds.query(
      `INSERT INTO addons (name, project_id, component_id, configuration) VALUES ('weblate.webhook.webhook', $1, $2, $3::jsonb) RETURNING id::text`,
      [secret.project.id, secret.component.id, JSON.stringify({ webhook_url: 'https://example.org/hook', secret: '', events: [] })],
    );
    [{ id: secretLabel }] = await ds.query(`INSERT INTO labels (project_id, name, color) VALUES ($1, 'Hidden label', 'red') RETURNING id::text`, [secret.project.id]);
    groupId = (await app.http().post('/api/groups/').set(...admin).send({ name: 'Team', project_selection: 0, language_selection: 1 }).expect(201)).body.id;
    roleId = (await app.http().post('/api/roles/').set(...admin).send({ name: 'Role', permissions: [] }).expect(201)).body.id;
    subscriptionId = (await app.http().get('/api/users/admin/notifications/').set(...admin).expect(200)).body.results[0].id;
    // A suggestion and a comment on the secret project's first unit (issue 13), for their routes below.
    [{ id: secretSuggestion }] = await ds.query(`INSERT INTO suggestions (unit_id, target) VALUES ($1, 'Tajné') RETURNING id::text`, [secret.translations[0].unitIds[0]]);
    [{ id: secretComment }] = await ds.query(`INSERT INTO comments (unit_id, comment) VALUES ($1, 'Tajné') RETURNING id::text`, [secret.translations[0].unitIds[0]]);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('answers a private component\'s task and lock under /API/ (any casing) with a rate-limited 404, never the object', async () => {
    const task = `/api/tasks/${secretTask}/`;
    const lock = '/api/components/secret/hidden/lock/';
    // The canonical paths hide the private objects from anonymous callers...
    expectRefused('canonical task', await raw(app, 'GET', task));
    expectRefused('canonical lock', await raw(app, 'GET', lock));
    // ...and so does every casing, for reads and for writes (which never reach a handler).
    for (const attack of [`/API/tasks/${secretTask}/`, `/Api/Tasks/${secretTask.toUpperCase()}/`, `/api/TASKS/${secretTask}/`, '/API/components/secret/hidden/lock/', '/api/components/secret/hidden/LOCK/']) {
      for (const method of ['GET', 'HEAD', 'OPTIONS', 'DELETE', 'POST']) {
        const response = await raw(app, method, attack, { 'Content-Type': 'application/json' }, method === 'POST' ? '{"lock": true}' : undefined);
        if (method === 'HEAD') expect({ attack, method, status: response.status }).toEqual({ attack, method, status: 404 });
        else expectRefused(`${method} ${attack}`, response);
        expect(response.text).not.toContain('cloned secret.git');
      }
    }
    // The task is still there, unchanged (no cancel went through), and the component is not locked.
    const [row] = await ds.query(`SELECT status FROM tasks WHERE id = $1`, [secretTask]);
    expect(row.status).toBe('completed');
    const [component] = await ds.query(`SELECT locked FROM components WHERE id = $1`, [secret.component.id]);
    expect(component.locked).toBe(false);
    // Their owner still sees them on the canonical path.
    expect((await app.http().get(task).set(...admin).expect(200)).body).toMatchObject({ completed: true });
  });

  it('answers every casing and slash variant of every route in the OpenAPI document with 404, or exactly as the canonical path', async () => {
    const document = JSON.parse(readFileSync(path.join(process.cwd(), 'openapi/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const unitId = secret.translations[0].unitIds[0];
    const values: Record<string, string> = {
      project: 'secret',
      component: 'hidden',
      language: 'cs',
      code: 'cs',
      username: 'admin',
      roleId: String(roleId),
      projectId: String(secret.project.id),
      componentId: String(secret.component.id),
      comment: secretComment,
      // A label of the private project (/api/projects/{project}/labels/{label}/).
      label: secretLabel,
      // A check id (the checks sub-resource of a unit, /api/units/{id}/checks/{name}/).
      name: 'same',
    };
    const idFor = (template: string): string => {
      if (template.startsWith('/api/tasks/')) return secretTask;
      if (template.startsWith('/api/suggestions/')) return secretSuggestion;
      if (template.startsWith('/api/units/')) return unitId;
      if (template.startsWith('/api/changes/')) return secretChange;
      if (template.startsWith('/api/addons/')) return secretAddon;
      if (template.startsWith('/api/groups/')) return String(groupId);
      if (template.startsWith('/api/roles/')) return String(roleId);
      if (template.includes('/notifications/')) return String(subscriptionId);
      throw new Error(`no id for ${template}`);
    };
    const random = seededRandom(10_4);
    const problems: string[] = [];
    let checked = 0;
    for (const [template, item] of Object.entries(document.paths)) {
      const canonical = template.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'id' ? idFor(template) : values[name]));
      expect(canonical).not.toMatch(/[{}]|undefined/);
      const methods = Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m));
      // An event stream (the change stream) never ends: its routing is checked with HEAD, which answers the same headers and ends.
      const streams = (m: string): boolean => JSON.stringify((item[m] as { responses?: unknown }).responses ?? {}).includes('text/event-stream');
      for (const method of [...methods.map((m) => (m === 'get' && streams(m) ? 'HEAD' : m.toUpperCase())), 'OPTIONS']) {
        const body = ['POST', 'PUT', 'PATCH'].includes(method) ? '{}' : undefined;
        const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
        const expected = await raw(app, method, canonical, headers, body);
        if (expected.status >= 500) problems.push(`${method} ${canonical} (canonical) -> ${expected.status}`);
        for (const [name, variant] of pathVariants(canonical, random)) {
          const response = await raw(app, method, variant, headers, body);
          checked += 1;
          const label = `${method} ${variant} (${name} of ${template})`;
          // HEAD answers carry no body to compare: the status and headers say it.
          if (response.status === 404 && (method === 'HEAD' || JSON.stringify(response.body) === JSON.stringify(NOT_FOUND))) {
            if (response.headers['content-type'] !== 'application/json' || response.headers['vary'] !== 'Accept' || response.headers['x-ratelimit-limit'] === undefined) {
              problems.push(`${label}: 404 without the contract or rate-limit headers`);
            }
            continue;
          }
          // `/api/changes/Stream/` names the change "Stream" (`/api/changes/{id}/`, 404 on GET), whose OPTIONS is
          // answered from the route alone, as DRF's metadata is, without looking the change up.
          if (method === 'OPTIONS' && template === '/api/changes/stream/' && (response.body as { name?: string } | undefined)?.name === 'Changes Instance') continue;
          // Anything else must be the canonical path's own answer (only the trailing slash may be left off).
          const same = response.status === expected.status && (canonical === '/metrics' ? true : JSON.stringify(response.body) === JSON.stringify(expected.body));
          if (!same || canonical.startsWith('/metrics')) {
            problems.push(`${label} -> ${response.status} ${response.text.slice(0, 120)} (canonical: ${expected.status} ${expected.text.slice(0, 80)})`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(2000);
  });

  it('answers NUL in a path segment with 404 and in a query parameter with 400, changing nothing', async () => {
    for (const attack of ['/api/projects/%00/', '/api/projects/pub%00/', '/api/components/pub/%00/', '/api/translations/pub/main/c%00s/', '/api/languages/%00/', '/api/users/%00/', '/api/tasks/%00/', '/api/%00/', '/%00']) {
      for (const method of ['GET', 'DELETE', 'PATCH']) {
        expectRefused(`${method} ${attack}`, await raw(app, method, attack, { Authorization: `Token ${TEST_ADMIN_TOKEN}`, 'Content-Type': 'application/json' }, method === 'PATCH' ? '{}' : undefined));
      }
    }
    for (const attack of ['/api/translations/pub/main/cs/units/?q=%00', '/api/units/?q=source:%22a%00b%22', '/api/changes/?user=%00', '/api/users/?username=a%00', '/api/projects/?page_size=%00']) {
      const response = await raw(app, 'GET', attack, { Authorization: `Token ${TEST_ADMIN_TOKEN}` });
      const parameter = /\?(\w+)=/.exec(attack)![1];
      expect({ attack, status: response.status, body: response.body }).toEqual({ attack, status: 400, body: { [parameter]: ['Null characters are not allowed.'] } });
      expect(response.headers['vary']).toBe('Accept');
    }
    // Bodies: DRF's CharField refuses NUL per field.
    const response = await app.http().patch('/api/projects/pub/').set(...admin).send({ name: 'Pub\u0000lic' }).expect(400);
    expect(response.body).toEqual({ name: ['Null characters are not allowed.'] });
    expect((await app.http().get('/api/projects/pub/').expect(200)).body.name).toBe('Public');
    const unit = pub.translations.find((t) => t.languageCode === 'cs')!.unitIds[1];
    const before = (await app.http().get(`/api/units/${unit}/`).expect(200)).body.target;
    for (const body of [{ target: ['a\u0000b'], state: 20 }, { target: ['ok'], state: 20, explanation: '\u0000' }, { ['tar\u0000get']: ['x'] }]) {
      const refused = await app.http().patch(`/api/units/${unit}/`).set(...admin).send(body);
      expect({ body, status: refused.status, errors: Object.values(refused.body) }).toEqual({ body, status: 400, errors: [['Null characters are not allowed.']] });
    }
    expect((await app.http().get(`/api/units/${unit}/`).expect(200)).body.target).toEqual(before);
    // Anonymous writes are still refused for the missing token first (the guard runs before the body check).
    await app.http().patch(`/api/units/${unit}/`).send({ target: ['a\u0000b'], state: 20 }).expect(401);
  });

  it('answers a page number past any real page with 404 Invalid page. on every list, translation units included', async () => {
    const lists = [
      '/api/projects/',
      '/api/components/',
      '/api/translations/',
      '/api/languages/',
      '/api/changes/',
      '/api/units/',
      '/api/users/',
      '/api/groups/',
      '/api/roles/',
      '/api/projects/pub/components/',
      '/api/projects/pub/changes/',
      '/api/components/pub/main/translations/',
      '/api/components/pub/main/changes/',
      '/api/components/pub/main/statistics/',
      '/api/translations/pub/main/cs/units/',
      '/api/translations/pub/main/cs/changes/',
      '/api/users/admin/notifications/',
    ];
    for (const list of lists) {
      for (const page of ['99999999999999999999', '9007199254740993', '2147483648', '1e300', '1' + '0'.repeat(400), '-1', '0', '0x10', '1.5', '%00']) {
        const response = await raw(app, 'GET', `${list}?page=${page}`, { Authorization: `Token ${TEST_ADMIN_TOKEN}` });
        const expected = page === '%00' ? { page: ['Null characters are not allowed.'] } : INVALID_PAGE;
        expect({ list, page, status: response.status, body: response.body }).toEqual({ list, page, status: page === '%00' ? 400 : 404, body: expected });
      }
      for (const size of ['99999999999999999999', '1e300']) {
        const response = await raw(app, 'GET', `${list}?page_size=${size}`, { Authorization: `Token ${TEST_ADMIN_TOKEN}` });
        expect({ list, size, status: response.status }).toEqual({ list, size, status: 200 });
      }
    }
  });

  it('answers a deeply nested JSON body with 400 JSON parse error and keeps answering', async () => {
    for (const depth of [100_000, 1000, 65]) {
      for (const [open, close] of [['[', ']'], ['{"a":', '}']]) {
        const nested = `{"name": ${open.repeat(depth)}1${close.repeat(depth)}}`;
        const response = await app.http().patch('/api/projects/pub/').set(...admin).set('Content-Type', 'application/json').send(nested);
        expect({ depth, open, status: response.status, body: response.body }).toEqual({ depth, open, status: 400, body: { detail: 'JSON parse error - Nesting deeper than 64 levels' } });
      }
    }
    // 64 levels are fine as JSON (the field then refuses a non-string name).
    const deepest = await app.http().patch('/api/projects/pub/').set(...admin).set('Content-Type', 'application/json').send(`{"name": ${'['.repeat(63)}${']'.repeat(63)}}`);
    expect(deepest.status).toBe(400);
    expect(deepest.body.detail).toBeUndefined();
    // Nesting inside strings is text, not depth.
    const text = '['.repeat(5000);
    await app.http().patch('/api/projects/pub/').set(...admin).send({ instructions: text }).expect(200);
    expect((await app.http().get('/api/projects/pub/').expect(200)).body.instructions).toBe(text);
    await app.http().get('/healthz').expect(200);
  });

  it('bounds the size of JSON and form bodies', async () => {
    const big = JSON.stringify({ instructions: 'x'.repeat(2_700_000) });
    const response = await app.http().patch('/api/projects/pub/').set(...admin).set('Content-Type', 'application/json').send(big);
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ detail: 'Request entity too large.' });
    const form = await app.http().patch('/api/projects/pub/').set(...admin).type('form').send(`instructions=${'x'.repeat(2_700_000)}`);
    expect(form.status).toBe(413);
  });
});

describe('security: production links and metrics exposure', () => {
  const SITE = 'https://glossa.example.org';
  const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789';
  const production = { NODE_ENV: 'production', SITE_URL: SITE, ALLOW_LOCAL_REPOSITORIES: 'false' };

  /** Every absolute link of a body (strings starting with http). */
  function linksOf(body: unknown): string[] {
    if (typeof body === 'string') return /^https?:\/\//.test(body) ? [body] : [];
    if (Array.isArray(body)) return body.flatMap(linksOf);
    if (body !== null && typeof body === 'object') return Object.values(body).flatMap(linksOf);
    return [];
  }

  describe('directly exposed (no trusted proxy)', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await createTestApp(production);
      const ds = app.glossa.app.get(DataSource);
      await createTranslatedComponent(ds, { project: { name: 'Public', slug: 'pub' }, component: { name: 'Main', slug: 'main' }, units: 2 });
    });
    afterAll(async () => {
      await app?.close();
    });

    it('builds API links on SITE_URL whatever Host or X-Forwarded-Host say', async () => {
      const forged: Array<Record<string, string>> = [
        { Host: 'evil.example' },
        { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'http' },
        { Host: 'evil.example:8443/x?' },
      ];
      for (const headers of forged) {
        for (const url of ['/api/', '/api/projects/pub/', '/api/components/pub/main/translations/?page_size=1', '/api/translations/pub/main/cs/units/?page_size=1']) {
          const response = await raw(app, 'GET', url, headers);
          expect({ url, headers, status: response.status }).toEqual({ url, headers, status: 200 });
          const links = linksOf(response.body).filter((link) => link.includes('/api/'));
          expect(links.length).toBeGreaterThan(0);
          expect({ url, headers, foreign: links.filter((link) => !link.startsWith(`${SITE}/api/`)) }).toEqual({ url, headers, foreign: [] });
          expect(response.text).not.toContain('evil.example');
        }
      }
    });

    it('hides /metrics by default (the API\'s rate-limited 404) while the health endpoints answer', async () => {
      for (const headers of [{}, { Authorization: `Bearer ${METRICS_TOKEN}` }] as Array<Record<string, string>>) {
        expectRefused('GET /metrics', await raw(app, 'GET', '/metrics', headers));
      }
      await app.http().get('/healthz').expect(200);
      await app.http().get('/readyz').expect(200);
    });

    it('counts anonymous callers by their socket address, ignoring X-Forwarded-For', async () => {
      const remaining = async (forwardedFor: string): Promise<number> =>
        Number((await raw(app, 'GET', '/api/', { 'X-Forwarded-For': forwardedFor })).headers['x-ratelimit-remaining']);
      const first = await remaining('203.0.113.1');
      expect(await remaining('203.0.113.2')).toBe(first - 1);
    });
  });

  describe('behind a trusted proxy, with a metrics token', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await createTestApp({ ...production, TRUST_PROXY: 'loopback', METRICS_TOKEN });
    });
    afterAll(async () => {
      await app?.close();
    });

    it('builds API links on the forwarded scheme and host, and on SITE_URL without or with a malformed one', async () => {
      const forwarded = await raw(app, 'GET', '/api/', { Host: '127.0.0.1', 'X-Forwarded-Host': 'translate.example.net', 'X-Forwarded-Proto': 'https' });
      expect((forwarded.body as Record<string, string>).projects).toBe('https://translate.example.net/api/projects/?format=api');
      const direct = await raw(app, 'GET', '/api/', { Host: 'evil.example' });
      expect((direct.body as Record<string, string>).projects).toBe(`${SITE}/api/projects/?format=api`);
      const malformed = await raw(app, 'GET', '/api/', { 'X-Forwarded-Host': 'evil.example/x?y=' });
      expect((malformed.body as Record<string, string>).projects).toBe(`${SITE}/api/projects/?format=api`);
    });

    it('counts anonymous callers by the forwarded client address', async () => {
      const remaining = async (forwardedFor: string): Promise<number> =>
        Number((await raw(app, 'GET', '/api/', { 'X-Forwarded-For': forwardedFor })).headers['x-ratelimit-remaining']);
      const first = await remaining('203.0.113.1');
      expect(await remaining('203.0.113.1')).toBe(first - 1);
      expect(await remaining('203.0.113.2')).toBe(first);
    });

    it('serves /metrics only with the bearer token', async () => {
      for (const authorization of [undefined, 'Bearer wrong-token', `Token ${METRICS_TOKEN}`, `Bearer ${METRICS_TOKEN}x`, `Token ${TEST_ADMIN_TOKEN}`]) {
        const response = await raw(app, 'GET', '/metrics', authorization === undefined ? {} : { Authorization: authorization });
        expect({ authorization, status: response.status, body: response.body }).toEqual({
          authorization,
          status: 401,
          body: { detail: 'Authentication credentials were not provided.' },
        });
        expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      }
      const scrape = await raw(app, 'GET', '/metrics', { Authorization: `Bearer ${METRICS_TOKEN}` });
      expect(scrape.status).toBe(200);
      expect(scrape.text).toContain('glossa_http_request_duration_seconds');
    });
  });
});
