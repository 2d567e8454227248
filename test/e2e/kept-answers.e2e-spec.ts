import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { captureStatements } from '../support/captured-statements';
import { createTranslatedComponent, type SeededContent } from '../support/content-factories';
import { authHeader } from '../support/contract';
import { createUserWithToken } from '../support/users-factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// Detail answers kept by their rows' versions (src/common/http/response-memo.ts): the project, component,
// translation and unit details and a component's translations are answered from the bytes this process kept when
// the auth guard's statement, which then reads the version alone, finds the rows unchanged. Every change below is
// made in SQL on another connection, as another replica's write would be: no notification, no invalidation
// reaches the process, and the next read must still show it.

describe('detail answers kept by their rows\' versions', () => {
  let app: TestApp;
  let ds: DataSource;
  let content: SeededContent;
  let client: Client;
  const admin = authHeader(TEST_ADMIN_TOKEN);
  const projectPath = () => `/api/projects/${content.project.slug}/`;
  const componentPath = () => `/api/components/${content.project.slug}/${content.component.slug}/`;
  const translationPath = (code = 'cs') => `/api/translations/${content.project.slug}/${content.component.slug}/${code}/`;
  const pagePath = (query = '') => `${componentPath()}translations/${query}`;
  const unitPath = (index = 0) => `/api/units/${content.translations[0].unitIds[index]}/`;
  const keptRoutes = () => [projectPath(), componentPath(), translationPath(), pagePath(), pagePath('?page_size=2&page=2'), unitPath()];

  /** Reads `path` twice and returns the second answer, after checking both are the same bytes and tag. */
  async function readTwice(path: string, headers: [string, string][] = []) {
    const send = () => headers.reduce((request, [name, value]) => request.set(name, value), app.http().get(path));
    const first = await send().expect(200);
    const second = await send().expect(200);
    expect(second.text).toBe(first.text);
    expect(second.headers['etag']).toBe(first.headers['etag']);
    expect(second.headers['content-length']).toBe(first.headers['content-length']);
    return second;
  }

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    content = await createTranslatedComponent(ds, { languages: ['cs', 'de', 'fr'], units: 4 });
    client = new Client({ connectionString: app.database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await app?.close();
  });

  /** The access statements a read sends (every one names the database's start in its version) and their rows, run again. */
  async function readStatements(path: string) {
    const { result, statements } = await captureStatements('pg_postmaster_start_time', () => app.http().get(path).set(...admin));
    expect(result.status).toBe(200);
    const rows = [];
    for (const statement of statements) rows.push((await client.query<{ access: { version: string; detail?: unknown } }>(statement.text, statement.values)).rows[0].access);
    return { result, rows };
  }

  for (const [what, path, marker] of [
    ['translation', translationPath, 'last_change::text'],
    ['unit', unitPath, 'unit_json'],
  ] as const) {
    it(`answers a repeated ${what} read from the kept bytes: the statement reads the version alone and PostgreSQL builds no body`, async () => {
      // The first read builds the body and names the version of its rows.
      const first = await readStatements(path());
      expect(first.rows).toHaveLength(1);
      expect(first.rows[0].detail).not.toBeNull();
      const { version } = first.rows[0];
      expect(version).toMatch(/\//);
      // The second reads the version alone: the same statement, run again, answers the version and no body, and
      // no statement that would build the body is sent.
      const second = await readStatements(path());
      expect(second.result.text).toBe(first.result.text);
      expect(second.rows).toHaveLength(1);
      expect(second.rows[0].version).toBe(version);
      expect(second.rows[0]).not.toHaveProperty('detail');
      const { statements } = await captureStatements(marker, () => app.http().get(path()).set(...admin));
      expect(statements).toHaveLength(0);
    });
  }

  it('reads a unit whose rows moved with the version first and then the full statement, and keeps the new answer', async () => {
    await readTwice(unitPath(1));
    await client.query(`UPDATE units SET explanation = 'Moved on another connection' WHERE id = $1`, [content.translations[0].unitIds[1]]);
    const moved = await readStatements(unitPath(1));
    expect(moved.result.body.explanation).toBe('Moved on another connection');
    // The check (no body), then the full statement; run again now, both name the rows as they are.
    expect(moved.rows).toHaveLength(2);
    expect(moved.rows[0]).not.toHaveProperty('detail');
    expect(moved.rows[1].detail).not.toBeNull();
    expect(moved.rows[0].version).toBe(moved.rows[1].version);
    const again = await readStatements(unitPath(1));
    expect(again.result.text).toBe(moved.result.text);
    expect(again.rows).toHaveLength(1);
    expect(again.rows[0]).not.toHaveProperty('detail');
  });

  // Each row a unit's JSON is built from (unit.response.ts unitVersionColumn), changed on another connection.
  it('shows the unit, its translation\'s plural and its component\'s, project\'s and language\'s names in links changed on another connection', async () => {
    const unitId = content.translations[0].unitIds[2];
    const path = `/api/units/${unitId}/`;
    const translationId = `(SELECT translation_id FROM units WHERE id = ${Number(unitId)})`;
    const steps: Array<{ sql: string; shows: (body: Record<string, unknown>) => boolean; undo?: string }> = [
      { sql: `UPDATE units SET target = 'Changed elsewhere' WHERE id = ${Number(unitId)}`, shows: (body) => JSON.stringify(body.target) === '["Changed elsewhere"]' },
      // A plural unit's target is fitted to its translation's plural (unit.response.ts).
      { sql: `UPDATE units SET source = E'One\\x1e\\x1eMany', target = E'Jeden\\x1e\\x1eMnoho' WHERE id = ${Number(unitId)}`, shows: (body) => (body.target as string[]).length >= 2 },
      { sql: `UPDATE translations SET plural_number = 4 WHERE id = ${translationId}`, shows: (body) => JSON.stringify(body.target) === '["Jeden","Mnoho","",""]' },
      {
        sql: `UPDATE components SET slug = slug || '-moved' WHERE id = ${content.component.id}`,
        shows: (body) => String(body.translation).includes(`/${content.component.slug}-moved/`),
        undo: `UPDATE components SET slug = '${content.component.slug}' WHERE id = ${content.component.id}`,
      },
      {
        sql: `UPDATE projects SET slug = slug || '-moved' WHERE id = ${content.project.id}`,
        shows: (body) => String(body.web_url).includes(`/${content.project.slug}-moved/`),
        undo: `UPDATE projects SET slug = '${content.project.slug}' WHERE id = ${content.project.id}`,
      },
      {
        sql: `UPDATE languages SET code = 'cs-moved' WHERE id = (SELECT language_id FROM translations WHERE id = ${translationId})`,
        shows: (body) => String(body.translation).includes('/cs-moved/'),
        undo: `UPDATE languages SET code = 'cs' WHERE code = 'cs-moved'`,
      },
    ];
    for (const step of steps) {
      const before = await readTwice(path);
      expect(step.shows(before.body as Record<string, unknown>)).toBe(false);
      await client.query(step.sql);
      expect(step.shows((await app.http().get(path).set(...admin).expect(200)).body as Record<string, unknown>)).toBe(true);
      if (step.undo !== undefined) await client.query(step.undo);
    }
  });

  it('shows a unit\'s labels set and deleted through the API, which touch the unit\'s row', async () => {
    const sourceId = content.source.unitIds[0];
    const path = `/api/units/${sourceId}/`;
    const label = await app.http().post(`/api/projects/${content.project.slug}/labels/`).set(...admin).send({ name: 'Kept', color: 'green' }).expect(201);
    expect((await readTwice(path)).body.labels).toEqual([]);
    await app.http().patch(path).set(...admin).send({ labels: [label.body.id] }).expect(200);
    expect((await readTwice(path)).body.labels).toEqual([label.body]);
    await app.http().delete(`/api/projects/${content.project.slug}/labels/${label.body.id}/`).set(...admin).expect(204);
    expect((await app.http().get(path).set(...admin).expect(200)).body.labels).toEqual([]);
  });

  it('keeps answers apart by path, query and link host', async () => {
    const bodies = new Map<string, string>();
    const variants: Array<[string, [string, string][]]> = [
      [translationPath('cs'), []],
      [translationPath('de'), []],
      [translationPath('fr'), []],
      [pagePath(), []],
      [pagePath('?page_size=2'), []],
      [pagePath('?page_size=2&page=2'), []],
      [componentPath(), []],
      [componentPath(), [['Host', 'glossa.example:8080']]],
    ];
    for (const [path, headers] of variants) bodies.set(`${path} ${JSON.stringify(headers)}`, (await readTwice(path, headers)).text);
    expect(new Set(bodies.values()).size).toBe(variants.length);
    const again = await app.http().get(translationPath('de')).expect(200);
    expect(again.body.language_code).toBe('de');
    expect((await app.http().get(componentPath()).set('Host', 'glossa.example:8080').expect(200)).body.url).toMatch(/^http:\/\/glossa\.example:8080\//);
  });

  it('answers 304 to If-None-Match and a HEAD from a kept answer', async () => {
    const kept = await readTwice(componentPath());
    const etag = kept.headers['etag'];
    const notModified = await app.http().get(componentPath()).set('If-None-Match', etag).expect(304);
    expect(notModified.text ?? '').toBe('');
    expect(notModified.headers['etag']).toBe(etag);
    expect(notModified.headers['vary']).toBe('Accept');
    const head = await app.http().head(componentPath()).expect(200);
    expect(head.headers['etag']).toBe(etag);
    expect(head.headers['content-length']).toBe(kept.headers['content-length']);
    expect(head.headers['content-type']).toBe('application/json');
  });

  // Each change touches one row a body is built from; every kept route that shows it must answer anew.
  const changes: Array<{ what: string; sql: string; shows: (body: Record<string, unknown>) => boolean }> = [
    {
      what: 'the translation\'s statistics',
      sql: `UPDATE translations SET translated = translated + 1 WHERE id = (SELECT t.id FROM translations t JOIN languages l ON l.id = t.language_id WHERE l.code = 'cs' AND t.component_id = $1)`,
      shows: (body) => JSON.stringify(body).includes('"language_code":"cs","id"') && JSON.stringify(body).includes('"translated":3,'),
    },
    {
      what: 'the language\'s name',
      sql: `UPDATE languages SET name = 'Czech (renamed)' WHERE code = 'cs' AND id IN (SELECT language_id FROM translations WHERE component_id = $1)`,
      shows: (body) => JSON.stringify(body).includes('Czech (renamed)'),
    },
    {
      what: 'the source language\'s name',
      sql: `UPDATE languages SET name = 'English (renamed)' WHERE id = (SELECT source_language_id FROM components WHERE id = $1)`,
      shows: (body) => JSON.stringify(body).includes('English (renamed)'),
    },
    {
      what: 'the component',
      sql: `UPDATE components SET priority = 77 WHERE id = $1`,
      shows: (body) => JSON.stringify(body).includes('"priority":77'),
    },
    {
      what: 'the project',
      sql: `UPDATE projects SET instructions = 'Read me' WHERE id = (SELECT project_id FROM components WHERE id = $1)`,
      shows: (body) => JSON.stringify(body).includes('Read me'),
    },
    {
      what: 'an add-on installed',
      sql: `INSERT INTO addons (component_id, project_id, name, configuration) SELECT id, project_id, 'weblate.gettext.linguas', '{}' FROM components WHERE id = $1`,
      shows: (body) => JSON.stringify(body).includes('/api/addons/'),
    },
    {
      what: 'the add-on removed',
      sql: `DELETE FROM addons WHERE component_id = $1`,
      shows: (body) => !JSON.stringify(body).includes('/api/addons/'),
    },
  ];

  for (const change of changes) {
    it(`shows ${change.what} changed on another connection on the next read`, async () => {
      const before = new Map<string, string>();
      for (const path of keptRoutes()) before.set(path, (await readTwice(path)).text);
      await client.query(change.sql, [content.component.id]);
      let shown = 0;
      for (const path of keptRoutes()) {
        const after = await app.http().get(path).expect(200);
        // What the full read answers now: the same bytes, whether the answer was kept or built.
        if (change.shows(after.body as Record<string, unknown>) && !change.shows(JSON.parse(before.get(path)!) as Record<string, unknown>)) shown += 1;
        else expect(after.text).toBe(before.get(path));
      }
      expect(shown).toBeGreaterThan(0);
    });
  }

  it('shows the last author\'s new name, and a page\'s new member', async () => {
    const author = await createUserWithToken(ds, 'kept-author', { fullName: 'First Name' });
    await client.query(`UPDATE translations SET last_author_id = $1 WHERE component_id = $2`, [author.id, content.component.id]);
    expect((await readTwice(translationPath())).body.last_author).toBe('First Name');
    expect((await readTwice(pagePath())).body.results[0].last_author).toBe('First Name');
    await client.query(`UPDATE users SET full_name = 'Second Name' WHERE id = $1`, [author.id]);
    expect((await app.http().get(translationPath()).expect(200)).body.last_author).toBe('Second Name');
    expect((await app.http().get(pagePath()).expect(200)).body.results[0].last_author).toBe('Second Name');
    const page = await readTwice(pagePath('?page_size=2&page=2'));
    const count = page.body.count as number;
    const language = await client.query<{ id: number }>(`INSERT INTO languages (code, name) VALUES ('kept-xx', 'Kept') RETURNING id`);
    await client.query(
      `INSERT INTO translations (component_id, language_id, language_code, filename) SELECT id, $2, 'kept-xx', 'kept-xx.json' FROM components WHERE id = $1`,
      [content.component.id, language.rows[0].id],
    );
    const grown = await app.http().get(pagePath('?page_size=2&page=2')).expect(200);
    expect(grown.body.count).toBe(count + 1);
  });

  it('refuses a hidden object although its answer is kept: visibility is read on every request', async () => {
    const reader = await createUserWithToken(ds, 'kept-reader');
    for (const path of keptRoutes()) await readTwice(path);
    await client.query(`UPDATE projects SET access_control = 100 WHERE id = $1`, [content.project.id]);
    for (const path of keptRoutes()) {
      await app.http().get(path).expect(404);
      await app.http().get(path).set('Authorization', `Token ${reader.token}`).expect(404);
      await app.http().get(path).set(...admin).expect(200);
    }
    await client.query(`UPDATE projects SET access_control = 0 WHERE id = $1`, [content.project.id]);
    for (const path of keptRoutes()) await app.http().get(path).expect(200);
  });
});
