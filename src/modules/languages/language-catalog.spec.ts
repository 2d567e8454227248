import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { languageCatalogPath, loadLanguageCatalog } from './language-catalog';

describe('loadLanguageCatalog', () => {
  it('finds the committed data file under the package root', () => {
    const file = languageCatalogPath();
    expect(path.isAbsolute(file)).toBe(true);
    expect(file.endsWith(path.join('src', 'modules', 'languages', 'data', 'languages.json'))).toBe(true);
    expect(existsSync(file)).toBe(true);
  });

  it('loads the languages sorted by code', () => {
    const catalog = loadLanguageCatalog();
    expect(catalog.length).toBeGreaterThanOrEqual(500);
    const codes = catalog.map((l) => l.code);
    expect(codes).toEqual([...codes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('gives the reference values of English (languages-formats-hashing.md §1.3)', () => {
    expect(loadLanguageCatalog().find((l) => l.code === 'en')).toMatchObject({
      name: 'English',
      direction: 'ltr',
      plural: { number: 2, formula: 'n != 1', type: 1 },
    });
  });

  it('reads the file once', () => {
    expect(loadLanguageCatalog()).toBe(loadLanguageCatalog());
  });
});
