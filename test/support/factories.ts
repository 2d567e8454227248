import type { DataSource, EntityManager } from 'typeorm';
import { Component } from '../../src/modules/components/component.entity';
import { loadLanguageCatalog } from '../../src/modules/languages/language-catalog';
import { Language } from '../../src/modules/languages/language.entity';
import { Project } from '../../src/modules/projects/project.entity';
import { DEFAULT_MESSAGE_TEMPLATES } from '../../src/sync/component-defaults';

// Small factories for tests: each inserts one row with Weblate's defaults and returns the saved entity.
// Names and slugs are made unique per call unless given, so tests can create as many as they need.

type Db = DataSource | EntityManager;

let sequence = 0;
const next = (): number => (sequence += 1);

/**
 * The language `code` with the built-in catalog's values (name, plural, aliases), or `overrides` for codes
 * the catalog lacks. Idempotent: an existing row with that code is returned as is, so it also works after
 * the language catalog was synced.
 */
export async function createLanguage(db: Db, code: string, overrides: Partial<Language> = {}): Promise<Language> {
  const repository = db.getRepository(Language);
  const existing = await repository.findOne({ where: { code } });
  if (existing) return existing;
  const record = loadLanguageCatalog().find((language) => language.code === code);
  const values: Partial<Language> = record
    ? {
        code,
        name: record.name,
        direction: record.direction,
        population: String(record.population),
        aliases: record.aliases,
        pluralNumber: record.plural.number,
        pluralFormula: record.plural.formula,
        pluralType: record.plural.type,
      }
    : { code, name: code };
  await repository.createQueryBuilder().insert().values({ ...values, ...overrides }).orIgnore().execute();
  return repository.findOneOrFail({ where: { code } });
}

/** Several languages at once, keyed by code. */
export async function createLanguages(db: Db, codes: readonly string[]): Promise<Map<string, Language>> {
  const languages = new Map<string, Language>();
  for (const code of codes) languages.set(code, await createLanguage(db, code));
  return languages;
}

export async function createProject(db: Db, overrides: Partial<Project> = {}): Promise<Project> {
  const n = next();
  const repository = db.getRepository(Project);
  return repository.save(
    repository.create({ name: `Project ${n}`, slug: `project-${n}`, web: 'https://example.org/', ...overrides }),
  );
}

/**
 * A json-nested component laid out like the spec's (`translations/<code>/<slug>.json`, template
 * `sources/<slug>.json`), English source, Weblate's default message templates. `repo` defaults to a
 * placeholder URL: pass a real one (e.g. a git sandbox) to import it.
 */
export async function createComponent(db: Db, project: Project, overrides: Partial<Component> = {}): Promise<Component> {
  const n = next();
  const slug = overrides.slug ?? `component-${n}`;
  const sourceLanguageId = overrides.sourceLanguageId ?? (await createLanguage(db, 'en')).id;
  const repository = db.getRepository(Component);
  return repository.save(
    repository.create({
      name: `Component ${n}`,
      slug,
      repo: 'https://example.org/repository.git',
      branch: 'main',
      filemask: `translations/*/${slug}.json`,
      template: `sources/${slug}.json`,
      fileFormat: 'json-nested',
      ...DEFAULT_MESSAGE_TEMPLATES,
      ...overrides,
      projectId: project.id,
      sourceLanguageId,
    }),
  );
}
