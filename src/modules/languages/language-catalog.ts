import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { DataSource, EntityManager } from 'typeorm';

/**
 * One built-in language: the fields of Weblate's Language API object that come from its language data
 * (shared/reference/languages-formats-hashing.md §1.3, weblate-api.md §6.1). `plural` is the default plural
 * (source 0, §1.4); `type` is precomputed with Weblate's rules (§1.5).
 */
export interface LanguageRecord {
  code: string;
  name: string;
  direction: 'ltr' | 'rtl';
  population: number;
  aliases: string[];
  plural: { number: number; formula: string; type: number };
}

/** Where the catalog lives, relative to the package root (committed data, built by scripts/generate-languages.mjs). */
const CATALOG_FILE = 'src/modules/languages/data/languages.json';

/**
 * The directory of Glossa's package.json. The JSON is not imported (tsc would not copy it into dist/, and a
 * JSON import cannot satisfy both tsc's CommonJS output and Jest's native ESM mode, see plural-type.ts), so
 * it is read from disk. The search starts at this module's directory when CommonJS provides `__dirname`
 * (dist/modules/languages, or src/… under ts-node), which works whatever the working directory is; Jest's
 * ESM mode has no `__dirname`, and there the working directory (Jest's rootDir) is the start. Walking up to
 * the package.json named "glossa" finds the same root from src/ and from dist/, so the file is always read
 * from src/modules/languages/data (so the Docker image needs package.json and that directory beside
 * dist/). Without a match the working directory is the fallback.
 */
function packageRoot(): string {
  const start = typeof __dirname === 'string' ? __dirname : process.cwd();
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (isGlossaPackage(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

function isGlossaPackage(file: string): boolean {
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'glossa';
  } catch {
    return false;
  }
}

export function languageCatalogPath(): string {
  return path.join(packageRoot(), CATALOG_FILE);
}

let cachedCatalog: LanguageRecord[] | undefined;

/**
 * The built-in languages, sorted by code (as generated). Read once and cached: the array is shared, so
 * callers must not mutate it.
 */
export function loadLanguageCatalog(): LanguageRecord[] {
  cachedCatalog ??= JSON.parse(readFileSync(languageCatalogPath(), 'utf8')) as LanguageRecord[];
  return cachedCatalog;
}

/**
 * Makes the `languages` table hold every catalog language with the catalog's values, in one statement:
 * rows whose values differ are updated in place (ids kept, so translations keep pointing at them), missing
 * codes are inserted in catalog order (code order, byte-wise like the generator's sort, so a fresh database
 * numbers them like Weblate's fresh install numbers languages.csv rows, §1.3). Insert-only-missing rather
 * than `ON CONFLICT DO UPDATE` because the latter draws a sequence value for every row on every startup;
 * `ON CONFLICT DO NOTHING` still covers two instances starting at once. Languages not in the catalog
 * (created on demand, §1.2 "Unknown codes") are left alone. Returns how many rows were written (0 when the
 * table is already up to date).
 */
export async function syncLanguageCatalog(manager: EntityManager | DataSource): Promise<number> {
  const rows = loadLanguageCatalog().map((l) => ({
    code: l.code,
    name: l.name,
    direction: l.direction,
    population: l.population,
    aliases: l.aliases,
    plural_number: l.plural.number,
    plural_formula: l.plural.formula,
    plural_type: l.plural.type,
  }));
  const result: Array<{ written: number }> = await manager.query(SYNC_SQL, [JSON.stringify(rows)]);
  return result[0].written;
}

const SYNC_SQL = `
  WITH catalog AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS c(
      code varchar, name varchar, direction varchar, population bigint, aliases text[],
      plural_number smallint, plural_formula text, plural_type smallint
    )
  ),
  updated AS (
    UPDATE languages AS l
    SET name = c.name, direction = c.direction, population = c.population, aliases = c.aliases,
        plural_number = c.plural_number, plural_formula = c.plural_formula, plural_type = c.plural_type
    FROM catalog AS c
    WHERE l.code = c.code
      AND (l.name, l.direction, l.population, l.aliases, l.plural_number, l.plural_formula, l.plural_type)
          IS DISTINCT FROM
          (c.name, c.direction, c.population, c.aliases, c.plural_number, c.plural_formula, c.plural_type)
    RETURNING l.id
  ),
  inserted AS (
    INSERT INTO languages (code, name, direction, population, aliases, plural_number, plural_formula, plural_type)
    SELECT c.code, c.name, c.direction, c.population, c.aliases, c.plural_number, c.plural_formula, c.plural_type
    FROM catalog AS c
    WHERE NOT EXISTS (SELECT 1 FROM languages AS l WHERE l.code = c.code)
    ORDER BY c.code COLLATE "C"
    ON CONFLICT (code) DO NOTHING
    RETURNING id
  )
  SELECT ((SELECT count(*) FROM updated) + (SELECT count(*) FROM inserted))::int AS written
`;
