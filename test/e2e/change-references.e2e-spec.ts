import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { eventually } from '../support/server-process';
import { createTestApp, TestApp } from '../support/test-app';
import { PATIENCE_MS } from '../support/wait';

// The history outlives what it talks about (Weblate's Change keeps its row when the unit, translation,
// component, project or user goes): deleting a parent sets the change's reference to it to NULL and changes
// nothing else. Up to 2026-11-28 six foreign keys ON DELETE SET NULL did it; migration ChangeReferenceTriggers
// replaced them by statement-level triggers. This test states the effect, whichever mechanism gives it: it
// predicts every row of `changes` after each kind of delete from the rows before it.

interface ChangeRow {
  id: string;
  action: number;
  unit_id: string | null;
  translation_id: number | null;
  component_id: number | null;
  project_id: number | null;
  language_id: number | null;
  user_id: number | null;
  author_id: number | null;
  target: string;
  old: string;
  details: Record<string, unknown>;
}

const REFERENCES = ['unit_id', 'translation_id', 'component_id', 'project_id', 'user_id', 'author_id'] as const;
type Reference = (typeof REFERENCES)[number];

describe('changes when what they reference is deleted', () => {
  let app: TestApp;
  let ds: DataSource;
  let first: SeededContent;
  let second: SeededContent;
  let third: SeededContent;
  let users: number[];

  const rows = async (): Promise<ChangeRow[]> =>
    (
      await ds.query(
        `SELECT id, action, unit_id, translation_id, component_id, project_id, language_id, user_id, author_id, target, old, details
           FROM changes ORDER BY id`,
      )
    ).map((row: ChangeRow) => ({
      ...row,
      id: String(row.id),
      unit_id: row.unit_id === null ? null : String(row.unit_id),
      translation_id: row.translation_id === null ? null : Number(row.translation_id),
      component_id: row.component_id === null ? null : Number(row.component_id),
      project_id: row.project_id === null ? null : Number(row.project_id),
      user_id: row.user_id === null ? null : Number(row.user_id),
      author_id: row.author_id === null ? null : Number(row.author_id),
    }));

  /** The rows before, with `column` set to NULL where it named one of `ids`. */
  const nulled = (before: ChangeRow[], cleared: Partial<Record<Reference, ReadonlyArray<string | number>>>): ChangeRow[] =>
    before.map((row) => {
      const next = { ...row };
      for (const column of REFERENCES) {
        const ids = (cleared[column] ?? []).map(String);
        if (row[column] !== null && ids.includes(String(row[column]))) (next as Record<string, unknown>)[column] = null;
      }
      return next;
    });

  const unitsOf = (content: SeededContent): string[] => [content.source, ...content.translations].flatMap((t) => t.unitIds);
  const translationsOf = (content: SeededContent): number[] => [content.source, ...content.translations].map((t) => t.id);

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    first = await createTranslatedComponent(ds, { languages: ['cs', 'de'], units: 4 });
    second = await createTranslatedComponent(ds, { languages: ['fr'], units: 3, inProject: first.project });
    third = await createTranslatedComponent(ds, { languages: ['it'], units: 2 });
    users = (await ds.query(`INSERT INTO users (username) VALUES ('change-user'), ('change-author'), ('bystander') RETURNING id`)).map(
      (row: { id: number }) => Number(row.id),
    );
    // Changes made by users, on units of every component: user and author differ on some, agree on others.
    const made: Array<[SeededContent, number, number, number | null]> = [
      [first, 0, users[0], users[1]],
      [first, 1, users[1], users[1]],
      [second, 0, users[0], null],
      [third, 0, users[2], users[0]],
    ];
    for (const [content, index, user, author] of made) {
      const translation = content.translations[0];
      await ds.query(
        `INSERT INTO changes (action, unit_id, translation_id, component_id, project_id, language_id, user_id, author_id, target, old, details)
         SELECT 5, $1, $2, $3, $4, t.language_id, $5, $6, 'new text', 'old text', '{"state": 20}'::jsonb FROM translations t WHERE t.id = $2`,
        [translation.unitIds[index], translation.id, content.component.id, content.project.id, user, author],
      );
    }
    // A change of the project alone and one of the component alone (no unit).
    await ds.query(`INSERT INTO changes (action, project_id, user_id) VALUES (1, $1, $2)`, [first.project.id, users[0]]);
    await ds.query(`INSERT INTO changes (action, component_id, project_id) VALUES (1, $1, $2)`, [second.component.id, first.project.id]);
  });
  afterAll(async () => {
    await app.close();
  });

  it('has changes referencing every kind of parent to begin with', async () => {
    const before = await rows();
    for (const column of REFERENCES) expect(before.some((row) => row[column] !== null)).toBe(true);
  });

  it('deleting units (one statement, two units) clears unit_id and nothing else', async () => {
    const before = await rows();
    const gone = [first.translations[0].unitIds[0], first.translations[0].unitIds[1]];
    expect(before.filter((row) => gone.includes(String(row.unit_id))).length).toBeGreaterThanOrEqual(2);
    await ds.query('DELETE FROM units WHERE id = ANY($1::bigint[])', [gone]);
    expect(await rows()).toEqual(nulled(before, { unit_id: gone }));
  });

  it('deleting a translation clears translation_id and the unit_id of its units', async () => {
    const before = await rows();
    const translation = first.translations[1];
    await ds.query('DELETE FROM translations WHERE id = $1', [translation.id]);
    expect(await rows()).toEqual(nulled(before, { translation_id: [translation.id], unit_id: translation.unitIds }));
  });

  it('deleting a component clears component_id and the references to its translations and units', async () => {
    const before = await rows();
    await ds.query('DELETE FROM components WHERE id = $1', [second.component.id]);
    expect(await rows()).toEqual(
      nulled(before, { component_id: [second.component.id], translation_id: translationsOf(second), unit_id: unitsOf(second) }),
    );
  });

  it('deleting users clears user_id and author_id wherever they named them', async () => {
    const before = await rows();
    expect(before.filter((row) => row.user_id === users[0] || row.author_id === users[0] || row.author_id === users[1]).length).toBeGreaterThanOrEqual(3);
    await ds.query('DELETE FROM users WHERE id = ANY($1::int[])', [[users[0], users[1]]]);
    expect(await rows()).toEqual(nulled(before, { user_id: [users[0], users[1]], author_id: [users[0], users[1]] }));
  });

  it('deleting a project clears project_id and the references to everything in it', async () => {
    const before = await rows();
    await ds.query('DELETE FROM projects WHERE id = $1', [first.project.id]);
    expect(await rows()).toEqual(
      nulled(before, {
        project_id: [first.project.id],
        component_id: [first.component.id],
        translation_id: translationsOf(first),
        unit_id: unitsOf(first),
      }),
    );
    // The other project's history is untouched, and a change row for its unit still names everything.
    const kept = (await rows()).filter((row) => row.project_id === third.project.id && row.user_id === users[2]);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ unit_id: third.translations[0].unitIds[0], component_id: third.component.id, author_id: null });
  });

  it('refuses a change naming a unit or user that does not exist, as the foreign keys did', async () => {
    const before = await rows();
    const insert = (unit: string | null, user: number | null) =>
      ds.query(`INSERT INTO changes (action, unit_id, project_id, user_id) VALUES (5, $1, $2, $3)`, [unit, third.project.id, user]);
    await expect(insert('999999999', null)).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23503' }) });
    await expect(insert(third.source.unitIds[0], 999999)).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23503' }) });
    await expect(
      ds.query(`INSERT INTO changes (action, component_id) VALUES (1, $1), (1, 999999)`, [third.component.id]),
    ).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23503' }) });
    expect(await rows()).toEqual(before);
  });

  // Two sessions: only on a PostgreSQL server (the embedded database is one session).
  const onServer = process.env.GLOSSA_TEST_SERVER_URL ? it : it.skip;

  const session = async (): Promise<Client> => {
    const client = new Client({ connectionString: app.database.url });
    await client.connect();
    return client;
  };
  /** Until the session with that backend pid waits for a lock. */
  const waitsForLock = (pid: number) =>
    eventually(
      async () => ((await ds.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'`, [pid])).length > 0 ? true : undefined),
      PATIENCE_MS,
      `session ${pid} waiting for a lock`,
    );
  /** Asked before the session runs a statement that blocks: a pg Client queues queries behind it. */
  const backendPid = async (client: Client): Promise<number> => (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;

  onServer('a delete racing an uncommitted change row waits for it and then clears its reference', async () => {
    const unit = third.source.unitIds[0];
    const writer = await session();
    const deleter = await session();
    const deleterPid = await backendPid(deleter);
    try {
      await writer.query('BEGIN');
      const { rows: inserted } = await writer.query(`INSERT INTO changes (action, unit_id, project_id) VALUES (5, $1, $2) RETURNING id`, [unit, third.project.id]);
      const deleting = deleter.query('DELETE FROM units WHERE id = $1', [unit]);
      await waitsForLock(deleterPid);
      await writer.query('COMMIT');
      await deleting;
      const [row] = await ds.query('SELECT unit_id, project_id FROM changes WHERE id = $1', [inserted[0].id]);
      expect(row).toEqual({ unit_id: null, project_id: third.project.id });
    } finally {
      await writer.end();
      await deleter.end();
    }
  });

  onServer('a change row racing an uncommitted delete of its unit waits for it and then fails, as with the foreign key', async () => {
    const unit = third.source.unitIds[1];
    const writer = await session();
    const deleter = await session();
    const writerPid = await backendPid(writer);
    try {
      await deleter.query('BEGIN');
      await deleter.query('DELETE FROM units WHERE id = $1', [unit]);
      const writing = writer.query(`INSERT INTO changes (action, unit_id, project_id) VALUES (5, $1, $2)`, [unit, third.project.id]).then(
        () => null,
        (error: { code?: string }) => error.code ?? 'error',
      );
      await waitsForLock(writerPid);
      await deleter.query('COMMIT');
      expect(await writing).toBe('23503');
      expect(await ds.query('SELECT id FROM changes WHERE unit_id = $1', [unit])).toEqual([]);
    } finally {
      await writer.end();
      await deleter.end();
    }
  });
});
