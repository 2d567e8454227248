import { DataSource } from 'typeorm';
import { createTranslatedComponent, SeededContent } from '../support/content-factories';
import { authHeader } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// `source:`, `context:`/`key:` and bare words find most units through their source unit, because the source
// and context trigram indexes hold the source units only (migration SourceTrigramsOnSourceUnits). The answer
// must stay what a search of each unit's own columns gives, also while a scan has changed a source unit and
// not yet its translations, and after a source unit is deleted while units of it remain. Each case compares
// the API's answer with that definition, run as SQL over the units' own columns.

describe('searches of source and context through the source units', () => {
  let app: TestApp;
  let ds: DataSource;
  let content: SeededContent;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    content = await createTranslatedComponent(ds, { languages: ['cs', 'de'], units: 6 });
  });
  afterAll(async () => {
    await app.close();
  });

  const apiIds = async (path: string, q: string): Promise<string[]> => {
    const response = await app.http().get(`${path}?q=${encodeURIComponent(q)}&page_size=1000`).set(...admin).expect(200);
    return response.body.results.map((unit: { id: number }) => String(unit.id)).sort();
  };
  const ownIds = async (condition: string, values: unknown[], translationId?: number): Promise<string[]> => {
    const scope = translationId === undefined ? '' : ` AND translation_id = ${Number(translationId)}`;
    return (await ds.query(`SELECT id FROM units WHERE (${condition})${scope}`, values)).map((row: { id: string }) => String(row.id)).sort();
  };

  /** Searches and their meaning over the units' own columns. */
  const cases: Array<[string, string, unknown[]]> = [
    ['source:"string number 3"', `source ILIKE $1`, ['%string number 3%']],
    ['source:="Sample string number 2 with more words"', `source = $1`, ['Sample string number 2 with more words']],
    ['source:r"number [13]$"', `source ~ $1`, ['number [13]$']],
    ['key:string2', `context ILIKE $1`, ['%string2%']],
    ['context:menu', `context ILIKE $1`, ['%menu%']],
    ['number', `source ILIKE $1 OR target ILIKE $1 OR context ILIKE $1`, ['%number%']],
    ['r"Changed|file"', `source ~ $1 OR target ~ $1 OR context ~ $1`, ['Changed|file']],
    ['NOT source:"number 1"', `NOT (source ILIKE $1)`, ['%number 1%']],
    ['source:Changed OR target:cs', `source ILIKE $1 OR target ILIKE $2`, ['%Changed%', '%cs%']],
    ['"number 2"', `source ILIKE $1 OR target ILIKE $1 OR context ILIKE $1`, ['%number 2%']],
    ['source:Changed', `source ILIKE $1`, ['%Changed%']],
  ];

  const expectSameAnswers = async (): Promise<void> => {
    for (const [q, condition, values] of cases) {
      expect({ q, ids: await apiIds('/api/units/', q) }).toEqual({ q, ids: await ownIds(condition, values) });
    }
    const cs = content.translations[0];
    const translationUnits = `/api/translations/${content.project.slug}/${content.component.slug}/cs/units/`;
    for (const [q, condition, values] of cases.slice(0, 6)) {
      expect({ q, ids: await apiIds(translationUnits, q) }).toEqual({ q, ids: await ownIds(condition, values, cs.id) });
    }
    // The flag names exactly the units whose text differs from their source unit's, or whose source unit is gone.
    const wrong = await ds.query(
      `SELECT u.id FROM units u LEFT JOIN units s ON s.id = u.source_unit_id
        WHERE u.source_unit_id IS NOT NULL AND u.source_unit_id <> u.id
          AND u.source_differs <> (s.id IS NULL OR s.source <> u.source OR s.context <> u.context)`,
    );
    expect(wrong).toEqual([]);
  };

  it('answers as a search of each unit\'s own text on freshly imported units', async () => {
    await expectSameAnswers();
  });

  it('while a scan has changed a source string and not yet its translations', async () => {
    // What a scan of a changed template does first: the source translation's unit alone.
    await ds.query(`UPDATE units SET source = 'Changed text number 2', context = context WHERE id = $1`, [content.source.unitIds[1]]);
    const flagged = await ds.query(`SELECT id FROM units WHERE source_differs ORDER BY id`);
    expect(flagged.map((row: { id: string }) => String(row.id)).sort()).toEqual(content.translations.map((t) => t.unitIds[1]).sort());
    await expectSameAnswers();
    // Then one translation's rescan writes the new text: that unit is back in step.
    await ds.query(`UPDATE units SET source = 'Changed text number 2' WHERE id = $1`, [content.translations[0].unitIds[1]]);
    await expectSameAnswers();
    // A key renamed in the source unit (monolingual id_hash follows the key, so a scan would not do this; the
    // flag still follows).
    await ds.query(`UPDATE units SET context = 'dialog.renamed' WHERE id = $1`, [content.source.unitIds[4]]);
    await expectSameAnswers();
  });

  it('after a source unit is deleted while units of it remain', async () => {
    await ds.query('DELETE FROM units WHERE id = $1', [content.source.unitIds[2]]);
    await expectSameAnswers();
  });
});
