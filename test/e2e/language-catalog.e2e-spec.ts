import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { loadLanguageCatalog, syncLanguageCatalog } from '../../src/modules/languages/language-catalog';
import { createTestDatabase, TestDatabase } from '../support/test-database';

describe('syncLanguageCatalog', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = new DataSource(buildDataSourceOptions(database.url, 1));
    await dataSource.initialize();
    // The table as the migrations leave it, before any start-up filled it (test databases come from a template
    // the service has started on once, test/support/template-start.ts).
    await dataSource.query('TRUNCATE languages RESTART IDENTITY CASCADE');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const idsByCode = async (): Promise<Map<string, number>> => {
    const rows: Array<{ id: number; code: string }> = await dataSource.query('SELECT id, code FROM languages');
    return new Map(rows.map((r) => [r.code, r.id]));
  };

  it('inserts the whole catalog in code order, then leaves an up-to-date table alone', async () => {
    const catalog = loadLanguageCatalog();
    expect(await syncLanguageCatalog(dataSource)).toBe(catalog.length);
    const first = await idsByCode();
    expect(first.size).toBeGreaterThanOrEqual(500);
    // Fresh database: ids follow the catalog order (languages-formats-hashing.md §1.3).
    expect(catalog.map((l) => first.get(l.code))).toEqual(catalog.map((_, i) => i + 1));

    const [en] = await dataSource.query(
      'SELECT name, direction, population, aliases, plural_number, plural_formula, plural_type FROM languages WHERE code = $1',
      ['en'],
    );
    expect(en).toMatchObject({ name: 'English', direction: 'ltr', plural_number: 2, plural_formula: 'n != 1', plural_type: 1 });
    expect(Number(en.population)).toBeGreaterThan(1_000_000_000);
    expect(en.aliases).toEqual(catalog.find((l) => l.code === 'en')?.aliases);

    expect(await syncLanguageCatalog(dataSource)).toBe(0);
    expect(await idsByCode()).toEqual(first);
  });

  it('repairs changed rows in place and re-adds missing ones without touching other ids', async () => {
    const before = await idsByCode();
    await dataSource.query("UPDATE languages SET plural_formula = 'n > 1', aliases = '{}' WHERE code = 'en'");
    await dataSource.query("DELETE FROM languages WHERE code = 'zu'");
    await dataSource.query("INSERT INTO languages (code, name) VALUES ('xx_custom', 'xx_custom (generated)')");

    await dataSource.transaction((manager) => syncLanguageCatalog(manager));

    const after = await idsByCode();
    const [en] = await dataSource.query("SELECT plural_formula FROM languages WHERE code = 'en'");
    expect(en.plural_formula).toBe('n != 1');
    expect(after.get('en')).toBe(before.get('en'));
    // The no-op sync drew no sequence values: xx_custom got N + 1, the re-added zu N + 2.
    expect(after.get('xx_custom')).toBe(loadLanguageCatalog().length + 1);
    expect(after.get('zu')).toBe(loadLanguageCatalog().length + 2);
    for (const [code, id] of before) if (code !== 'zu') expect(after.get(code)).toBe(id);
  });
});
