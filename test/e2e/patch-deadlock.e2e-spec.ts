import { rm } from 'node:fs/promises';
import { DataSource } from 'typeorm';
import { recheckUnits } from '../../src/sync/unit-checks';
import { authHeader } from '../support/contract';
import { createTranslatedComponent, sampleString, type SeededContent } from '../support/content-factories';
import { deadlocksIn } from '../support/deadlocks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// Many PATCHes of different units at once (the bench's unit PATCH load found `deadlock detected` in
// refreshFailingFlags): units of one translation, of two translations of one component (the same source
// unit in two languages: `multiple_failures`), and of the same string in another component of the project
// (`inconsistent` ties them, so both edits recheck both units). Some edits make a check start failing
// (a target ending in "!", a target equal to the source, a sibling translated differently), others make it
// pass again. Every answer must be 200, PostgreSQL must count no deadlock in the database, and the stored
// counters and check rows must equal a recount.

const ROUNDS = 8;
const STRINGS = 24;
/** The first SHARED strings also exist in the second component (siblings); the rest take the one-statement check path. */
const SHARED = 16;

describe('concurrent PATCHes of different units', () => {
  let app: TestApp;
  let db: DataSource;
  let first: SeededContent;
  let second: SeededContent;
  let database: string;
  /** The application was closed by the test (its database is dropped in afterAll). */
  let closed = false;

  beforeAll(async () => {
    // A pool as large as production's default, so that the edits really run side by side in PostgreSQL.
    app = await createTestApp({ DATABASE_POOL_SIZE: process.env.GLOSSA_TEST_EMBEDDED_URL ? '1' : '10' });
    db = app.glossa.app.get(DataSource);
    first = await createTranslatedComponent(db, { languages: ['cs', 'de'], units: STRINGS, translated: () => true });
    second = await createTranslatedComponent(db, { languages: ['cs', 'de'], units: SHARED, translated: () => true, inProject: first.project });
    [{ database }] = await db.query('SELECT current_database() AS database');
    // The seeded rows carry no checks: compute them once, so that the recount at the end starts from truth.
    await recheckAll();
    // Planner statistics as after an import (the bench runs VACUUM ANALYZE): with them PostgreSQL scans the
    // small translations table sequentially, in the rows' physical order, which updates keep changing.
    await db.query('VACUUM (ANALYZE)');
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

  /**
   * A target for unit `index` of a translation: strings with siblings alternate between the sibling's text
   * (consistent) and their own (`inconsistent` then fails on both units, in both components), so every such
   * edit moves the failing counters of two translations; the others alternate between ending in "!"
   * (end_exclamation fails) and a plain text.
   */
  function targetFor(index: number, round: number, code: string, shared: boolean): string {
    if (shared) return round % 2 === 0 ? `[${code}] ${sampleString(index).source}` : `${code} ${index} ${round}`;
    return round % 2 === 0 ? `${code} ${index} ${round}!` : `${code} ${index} ${round}`;
  }

  it('answers every PATCH with 200, without deadlocks, and keeps counters and check rows exact', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const edits: Array<{ id: string; target: string }> = [
        // One translation: strings with siblings, and strings without.
        ...unitsOf(first, 'de').map((id, i) => ({ id, target: targetFor(i, round, 'de', i < SHARED) })),
        // The same source units in a second language (multiple_failures of their source units).
        ...unitsOf(first, 'cs').slice(0, SHARED / 2).map((id, i) => ({ id, target: targetFor(i, round, 'cs', true) })),
        // Siblings edited from the other component's side.
        ...unitsOf(second, 'cs').slice(SHARED / 2).map((id, i) => ({ id, target: targetFor(i + SHARED / 2, round, 'cs', true) })),
        // Both units of a string at once (each edit rechecks both): the rows stored must follow the last texts.
        ...unitsOf(second, 'de').slice(0, 4).map((id, i) => ({ id, target: targetFor(i, round + 1, 'de', true) })),
      ];
      expect(edits.length).toBe(STRINGS + 20);
      const responses = await Promise.all(
        edits.map((edit) => app.http().patch(`/api/units/${edit.id}/`).set(...authHeader(TEST_ADMIN_TOKEN)).send({ target: [edit.target], state: 20 })),
      );
      expect(responses.map((response) => `${response.status} ${response.status === 200 ? '' : response.text}`.trim())).toEqual(edits.map(() => '200'));
    }

    // Counters equal what the units say.
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
      expect([row.translated, row.fuzzy, row.approved, row.failing_checks, row.failing_checks_words]).toEqual([
        row.units_translated,
        row.units_fuzzy,
        row.units_approved,
        row.units_failing,
        row.units_failing_words,
      ]);
    }
    // The edits did make checks fail (the test exercises the check paths), in several translations.
    expect(counters.filter((row: { failing_checks: number }) => row.failing_checks > 0).length).toBeGreaterThanOrEqual(4);
    const [{ wrong }] = await db.query(
      `SELECT count(*)::int AS wrong FROM units u
        WHERE u.has_failing_check <> EXISTS (SELECT 1 FROM checks c WHERE c.unit_id = u.id AND NOT c.dismissed)`,
    );
    expect(wrong).toBe(0);
    // The stored check rows are what a recheck from scratch computes.
    const snapshot = () => db.query('SELECT unit_id, name FROM checks ORDER BY unit_id, name');
    const stored = await snapshot();
    expect(stored.some((row: { name: string }) => row.name === 'inconsistent')).toBe(true);
    await recheckAll();
    expect(await snapshot()).toEqual(stored);

    // PostgreSQL counted no deadlock in this database. Its statistics are flushed by each backend when it
    // goes idle or exits; closing the application's pool and waiting for its backends to leave flushes them.
    // The database is fresh (cloned from the template), so its counter started at zero.
    await app.glossa.close();
    closed = true;
    expect(await deadlocksIn(database)).toBe(0);
  });
});
