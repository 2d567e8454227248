import { DataSource } from 'typeorm';
import { authHeader } from '../support/contract';
import { createTranslatedComponent, type SeededContent } from '../support/content-factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

// Issue 3, "Done means": two clients updating the same unit at the same moment — both updates are recorded in
// the history and the final state is one of them, never a mix (weblate-api.md §10.2). Edits lock the unit row,
// so concurrent PATCHes apply one after the other and each records the text it really replaced.

describe('concurrent edits of one unit', () => {
  let app: TestApp;
  let db: DataSource;
  let content: SeededContent;
  let second: string;

  beforeAll(async () => {
    // The embedded database is one session: production uses a single connection with it (database-runtime.ts),
    // which serialises requests; the harness's pool of four would interleave two transactions in that session.
    app = await createTestApp(process.env.GLOSSA_TEST_EMBEDDED_URL ? { DATABASE_POOL_SIZE: '1' } : {});
    db = app.glossa.app.get(DataSource);
    second = (await createUserWithToken(db, 'second', { isSuperuser: true })).token;
    content = await createTranslatedComponent(db, { languages: ['cs'], units: 2 });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('serialises simultaneous PATCHes: both recorded, the final unit is the later one, old texts chain', async () => {
    const unitId = content.translations.find((t) => t.languageCode === 'cs')!.unitIds[1];
    for (let round = 0; round < 5; round++) {
      const [a, b] = [`Verze A ${round}`, `Verze B ${round}`];
      const before: Array<{ id: string }> = await db.query('SELECT id FROM changes WHERE unit_id = $1', [unitId]);
      const responses = await Promise.all([
        app.http().patch(`/api/units/${unitId}/`).set(...authHeader(TEST_ADMIN_TOKEN)).send({ target: [a], state: 20 }),
        app.http().patch(`/api/units/${unitId}/`).set(...authHeader(second)).send({ target: [b], state: 20 }),
      ]);
      expect(responses.map((r) => r.status)).toEqual([200, 200]);
      const changes: Array<{ target: string; old: string; action: number }> = await db.query(
        'SELECT target, old, action FROM changes WHERE unit_id = $1 AND action IN (2, 5) AND NOT (id = ANY($2::bigint[])) ORDER BY id',
        [unitId, before.map((c) => c.id)],
      );
      // Both edits are in the history, in the order they were applied...
      expect(changes.map((c) => c.target).sort()).toEqual([a, b]);
      // ...the second replaced the first (no lost update), and the unit holds the last one, whole.
      expect(changes[1].old).toBe(changes[0].target);
      const [unit]: Array<{ target: string; state: number; pending: boolean }> = await db.query('SELECT target, state, pending FROM units WHERE id = $1', [unitId]);
      expect(unit).toEqual({ target: changes[1].target, state: 20, pending: true });
    }
    // The statistics counted the unit once.
    const stats = await app.http().get(`/api/translations/${content.project.slug}/${content.component.slug}/cs/statistics/`).expect(200);
    expect(stats.body.translated).toBe(2);
  });

  it('refuses translating, adding and removing strings while the component is locked (weblate-api.md §10.6)', async () => {
    const { project, component } = content;
    const cs = content.translations.find((t) => t.languageCode === 'cs')!;
    const lockUrl = `/api/components/${project.slug}/${component.slug}/lock/`;
    await app.http().post(lockUrl).set(...authHeader(TEST_ADMIN_TOKEN)).send({ lock: 1 }).expect(200);
    try {
      const locked = { detail: 'This translation is currently locked.' };
      const patch = await app.http().patch(`/api/units/${cs.unitIds[0]}/`).set(...authHeader(TEST_ADMIN_TOKEN)).send({ target: ['x'], state: 20 }).expect(403);
      expect(patch.body).toEqual(locked);
      await app.http().patch(`/api/components/${project.slug}/${component.slug}/`).set(...authHeader(TEST_ADMIN_TOKEN)).send({ manage_units: true }).expect(200);
      const add = await app
        .http()
        .post(`/api/translations/${project.slug}/${component.slug}/en/units/`)
        .set(...authHeader(TEST_ADMIN_TOKEN))
        .send({ key: 'new.key', value: ['New'] })
        .expect(403);
      expect(add.body).toEqual(locked);
      const remove = await app.http().delete(`/api/units/${content.source.unitIds[0]}/`).set(...authHeader(TEST_ADMIN_TOKEN)).expect(403);
      expect(remove.body).toEqual(locked);
    } finally {
      await app.http().post(lockUrl).set(...authHeader(TEST_ADMIN_TOKEN)).send({ lock: 0 }).expect(200);
    }
    await app.http().patch(`/api/units/${cs.unitIds[0]}/`).set(...authHeader(TEST_ADMIN_TOKEN)).send({ target: ['x'], state: 20 }).expect(200);
  });
});
