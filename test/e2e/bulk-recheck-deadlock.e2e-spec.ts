import { rm } from 'node:fs/promises';
import { DataSource } from 'typeorm';
import { CHECK_BATCH } from '../../src/sync/check-rows';
import { ComponentRecheckScheduler } from '../../src/sync/component-recheck.scheduler';
import { recheckUnits } from '../../src/sync/unit-checks';
import { authHeader } from '../support/contract';
import { createTranslatedComponent, sampleString, type SeededContent } from '../support/content-factories';
import { deadlocksIn } from '../support/deadlocks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// The lock-order leftovers of docs/performance.md "Concurrent unit PATCHes": a bulk edit locked the
// translation rows before its recheck locked the units' siblings, and a component recheck of more than one
// batch held one batch's counters while locking the next batch's units. Each deadlocked against unit
// PATCHes (and bulk edits) running at the same time. Every answer must succeed, PostgreSQL must count no
// deadlock in the database, and counters and check rows must equal a recount.

const admin = authHeader(TEST_ADMIN_TOKEN);

describe('bulk edits and component rechecks racing unit PATCHes', () => {
  let app: TestApp;
  let db: DataSource;
  let database: string;
  let closed = false;

  beforeAll(async () => {
    // A pool as large as production's default, so that the writes really run side by side in PostgreSQL.
    app = await createTestApp({ DATABASE_POOL_SIZE: process.env.GLOSSA_TEST_EMBEDDED_URL ? '1' : '10' });
    db = app.glossa.app.get(DataSource);
    [{ database }] = await db.query('SELECT current_database() AS database');
  });

  afterAll(async () => {
    if (!closed) await app?.close();
    else {
      await app.database.drop();
      await rm(app.dataDir, { recursive: true, force: true });
    }
  });

  const unitsOf = (content: SeededContent, code: string): string[] => content.translations.find((t) => t.languageCode === code)!.unitIds;

  async function recheckAll(): Promise<void> {
    const rows: Array<{ id: string }> = await db.query('SELECT id FROM units ORDER BY id');
    await db.transaction((manager) => recheckUnits(manager, rows.map((row) => String(row.id))));
  }

  /** Counters equal what the units say, `has_failing_check` equals the rows, and the rows equal a recheck from scratch. */
  async function expectExact(): Promise<void> {
    const counters = await db.query(
      `SELECT t.id, t.translated, t.fuzzy, t.approved, t.failing_checks, t.failing_checks_words,
              count(u.id) FILTER (WHERE u.state >= 20)::int AS units_translated,
              count(u.id) FILTER (WHERE u.state BETWEEN 10 AND 12)::int AS units_fuzzy,
              count(u.id) FILTER (WHERE u.state = 30)::int AS units_approved,
              count(u.id) FILTER (WHERE u.has_failing_check)::int AS units_failing,
              COALESCE(sum(u.num_words) FILTER (WHERE u.has_failing_check), 0)::int AS units_failing_words
         FROM translations t LEFT JOIN units u ON u.translation_id = t.id GROUP BY t.id ORDER BY t.id`,
    );
    for (const row of counters) {
      expect([row.id, row.translated, row.fuzzy, row.approved, row.failing_checks, row.failing_checks_words]).toEqual([
        row.id,
        row.units_translated,
        row.units_fuzzy,
        row.units_approved,
        row.units_failing,
        row.units_failing_words,
      ]);
    }
    const [{ wrong }] = await db.query(
      `SELECT count(*)::int AS wrong FROM units u
        WHERE u.has_failing_check <> EXISTS (SELECT 1 FROM checks c WHERE c.unit_id = u.id AND NOT c.dismissed)`,
    );
    expect(wrong).toBe(0);
    const snapshot = () => db.query('SELECT unit_id, name FROM checks ORDER BY unit_id, name');
    const stored = await snapshot();
    await recheckAll();
    expect(await snapshot()).toEqual(stored);
  }

  const patch = (id: string, target: string) => app.http().patch(`/api/units/${id}/`).set(...admin).send({ target: [target], state: 20 });
  const statusOf = (response: { status: number; text: string }) => `${response.status} ${response.status === 200 ? '' : response.text}`.trim();

  it('runs mirrored bulk edits of two components and PATCHes of the edited strings’ siblings without deadlock', async () => {
    const STRINGS = 24;
    const HALF = STRINGS / 2;
    const first = await createTranslatedComponent(db, { languages: ['de'], units: STRINGS, translated: () => true });
    const second = await createTranslatedComponent(db, { languages: ['de'], units: STRINGS, translated: () => true, inProject: first.project });
    const [a, b] = [unitsOf(first, 'de'), unitsOf(second, 'de')];
    await recheckAll();
    await db.query('VACUUM (ANALYZE)');
    // Each bulk edit changes one half of the strings in one component and the other half in the other, so
    // both touch both translations, and each one's siblings are the units the other one edits.
    const q1 = `id:${[...a.slice(0, HALF), ...b.slice(HALF)].join(',')}`;
    const q2 = `id:${[...a.slice(HALF), ...b.slice(0, HALF)].join(',')}`;
    for (let round = 0; round < 6; round++) {
      const state = round % 2 === 0 ? 10 : 20;
      const bulk = (q: string) => app.http().post(`/api/projects/${first.project.slug}/bulk/`).set(...admin).send({ q, state });
      // PATCHes of siblings of both bulk edits (the same strings, edited from the other component), half of
      // them translated like their sibling, half differently (`inconsistent` then fails on both units).
      const edits = [...b.slice(0, 4), ...a.slice(HALF, HALF + 4), ...b.slice(HALF + 4, HALF + 8)].map((id, i) => ({
        id,
        target: (i + round) % 2 === 0 ? `[de] ${sampleString(a.includes(id) ? a.indexOf(id) : b.indexOf(id)).source}` : `de ${id} ${round}`,
      }));
      const responses = await Promise.all([bulk(q1), bulk(q2), ...edits.map((edit) => patch(edit.id, edit.target))]);
      expect(responses.map(statusOf)).toEqual(responses.map(() => '200'));
    }
    await expectExact();
  });

  it('rechecks a component of more than one batch while its later batch is PATCHed, without deadlock', async () => {
    // One translation larger than a batch: the recheck moves its counters in the first batch and locks the
    // rest of its units in the second, while PATCHes of those units wait for the counters.
    const STRINGS = CHECK_BATCH + 200;
    const big = await createTranslatedComponent(db, { languages: ['de'], units: STRINGS, translated: () => true });
    const late = unitsOf(big, 'de').slice(CHECK_BATCH);
    const rechecks = app.glossa.app.get(ComponentRecheckScheduler);
    await db.query('VACUUM (ANALYZE)');
    // Every translation fails max-length with the first flags and passes with the second: each recheck
    // flips the first batch's units, so it moves the translation's counters.
    for (const [round, flags] of ['max-length:5', ''].entries()) {
      await db.query('UPDATE components SET check_flags = $1 WHERE id = $2', [flags, big.component.id]);
      let done = false;
      const recheck = rechecks.recheck(big.component.id).finally(() => {
        done = true;
      });
      const statuses: string[] = [];
      // Ten writers PATCH units of the later batch until the recheck has finished.
      const writer = async (offset: number) => {
        for (let i = offset; !done; i += 10) {
          statuses.push(statusOf(await patch(late[i % late.length], `de ${i} ${round}`)));
        }
      };
      await Promise.all([recheck, ...Array.from({ length: 10 }, (_, offset) => writer(offset))]);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status !== '200')).toEqual([]);
      const [{ failing }] = await db.query('SELECT failing_checks AS failing FROM translations WHERE id = $1', [
        big.translations[0].id,
      ]);
      // The recheck did flip the checks (the later PATCHes may have moved a few of the edited units).
      if (flags === '') expect(failing).toBe(0);
      else expect(failing).toBeGreaterThanOrEqual(CHECK_BATCH);
    }
    await expectExact();
  });

  it('leaves PostgreSQL without a deadlock in this database', async () => {
    await app.glossa.close();
    closed = true;
    expect(await deadlocksIn(database)).toBe(0);
  });
});
