import type { Response } from 'supertest';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { apiLink, authHeader, expectApiHeaders } from '../support/contract';
import { waitForTask as waitForSomeTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
import { COMPONENT_KEYS, PROJECT_KEYS, SCOPE_10_KINDS, SCOPE_20_KINDS, TRANSLATION_KEYS } from '../support/spec-shapes';

// The spec's five endpoints (api-spec.md "Endpoints") on data imported the way an operator imports it:
// POST /api/projects/, then POST /api/projects/<p>/components/ with a real git repository holding a
// json-nested component laid out as the spec's component (filemask translations/*/<slug>.json, template
// sources/<slug>.json), imported by the background task. Everything asserted below comes from the spec:
// key sets and their order, value types, headers, link formats, and the list and source invariants.

const SITE_URL = 'http://glossa.test';
const PROJECT = { name: 'Shapes', slug: 'shapes', web: 'https://shapes.example/' };
const SLUG = 'webapp';
const TEMPLATE = `{
    "app": {"title": "Shapes", "tagline": "Strings imported from git"},
    "menu": {"file": "File", "edit": "Edit", "view": "View"},
    "greeting": "Hello, {name}!",
    "weekdays": ["Monday", "Tuesday"],
    "about": "Made with ♥ — “translate everything”"
}
`;
const CS = `{
    "app": {"title": "Tvary", "tagline": "Řetězce importované z gitu"},
    "menu": {"file": "Soubor", "edit": "Úpravy", "view": "Zobrazit"},
    "greeting": "Ahoj, {name}!",
    "weekdays": ["Pondělí", "Úterý"]
}
`;
const DE = '{"app": {"title": "Formen"}, "menu": {"file": "Datei"}}\n';
const CONTEXTS = ['app.title', 'app.tagline', 'menu.file', 'menu.edit', 'menu.view', 'greeting', 'weekdays[0]', 'weekdays[1]', 'about'];
const UNITS = CONTEXTS.length;

// Key order of every resource, as the spec's tables list the fields.
const ENVELOPE_KEYS = ['count', 'next', 'previous', 'results'];
const UNIT_KEYS = [
  'id', 'translation', 'source', 'previous_source', 'target', 'id_hash', 'content_hash', 'location', 'context', 'note',
  'flags', 'extra_flags', 'explanation', 'labels', 'state', 'fuzzy', 'translated', 'approved', 'pending', 'position',
  'has_suggestion', 'has_comment', 'has_failing_check', 'num_words', 'source_unit', 'priority', 'web_url', 'url', 'timestamp',
];
const CHANGE_KEYS = ['id', 'unit', 'component', 'translation', 'user', 'author', 'timestamp', 'action', 'action_name', 'target', 'url'];
const LANGUAGE_KEYS = ['code', 'name', 'plural', 'aliases', 'direction', 'population', 'web_url', 'url', 'statistics_url'];
const PLURAL_KEYS = ['id', 'source', 'number', 'formula', 'type'];
const SUBSCRIPTION_KEYS = ['id', 'notification', 'scope', 'frequency', 'project', 'component'];

// The Allow column of the spec's endpoint table.
const ALLOW = {
  units: 'GET, POST, HEAD, OPTIONS',
  changes: 'GET, HEAD, OPTIONS',
  translation: 'GET, DELETE, HEAD, OPTIONS',
  component: 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS',
  notifications: 'GET, POST, HEAD, OPTIONS',
};

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const REVISION = /^[0-9a-f]{40},[0-9a-f]{40}$/;

/** A value type of the spec's tables; `api`/`web` are absolute links, `api` with `format=api` (rules 3, 6). */
type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'string[]' | 'null' | 'api' | 'web' | 'timestamp';
interface Shape {
  [key: string]: Kind | `${Kind}|null` | Shape;
}

/**
 * Every mismatch between `value` and `shape` (keys in order, then each value's type), as readable lines:
 * one assertion shows them all at once.
 */
function shapeErrors(value: unknown, shape: Shape, origin: string, where = '$'): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${where}: expected an object, got ${JSON.stringify(value)}`];
  const errors: string[] = [];
  const keys = Object.keys(value);
  if (JSON.stringify(keys) !== JSON.stringify(Object.keys(shape))) errors.push(`${where}: keys ${JSON.stringify(keys)}`);
  for (const [key, kind] of Object.entries(shape)) {
    const item = (value as Record<string, unknown>)[key];
    const at = `${where}.${key}`;
    if (typeof kind === 'object') {
      errors.push(...shapeErrors(item, kind, origin, at));
      continue;
    }
    const kinds = kind.split('|') as Kind[];
    if (!kinds.some((k) => isKind(item, k, origin))) errors.push(`${at}: expected ${kind}, got ${JSON.stringify(item)}`);
  }
  return errors;
}

function isKind(value: unknown, kind: Kind, origin: string): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'string[]':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
    case 'null':
      return value === null;
    case 'timestamp':
      return typeof value === 'string' && TIMESTAMP.test(value);
    case 'api':
      // Absolute, on the request's origin, under /api/, and carrying format=api.
      return typeof value === 'string' && value.startsWith(`${origin}/api/`) && new URL(value).searchParams.get('format') === 'api';
    case 'web':
      // Absolute links into the web interface, on the configured site URL (not API resources).
      return typeof value === 'string' && value.startsWith(`${SITE_URL}/`) && !new URL(value).pathname.startsWith('/api/');
  }
}

const LANGUAGE_SHAPE: Shape = {
  code: 'string',
  name: 'string',
  plural: { id: 'integer', source: 'integer', number: 'integer', formula: 'string', type: 'integer' },
  aliases: 'string[]',
  direction: 'string',
  population: 'integer',
  web_url: 'web',
  url: 'api',
  statistics_url: 'api',
};
const PROJECT_SHAPE: Shape = {
  name: 'string',
  slug: 'string',
  id: 'integer',
  web: 'string',
  web_url: 'web',
  url: 'api',
  components_list_url: 'api',
  repository_url: 'api',
  statistics_url: 'api',
  changes_list_url: 'api',
  languages_url: 'api',
  translation_review: 'boolean',
  source_review: 'boolean',
  set_language_team: 'boolean',
  instructions: 'string',
  enable_hooks: 'boolean',
  language_aliases: 'string',
};
const COMPONENT_SHAPE: Shape = {
  name: 'string',
  slug: 'string',
  id: 'integer',
  source_language: LANGUAGE_SHAPE,
  project: PROJECT_SHAPE,
  vcs: 'string',
  repo: 'string',
  push: 'string',
  git_export: 'string',
  branch: 'string',
  push_branch: 'string',
  filemask: 'string',
  screenshot_filemask: 'string',
  template: 'string',
  edit_template: 'boolean',
  intermediate: 'string',
  new_base: 'string',
  file_format: 'string',
  license: 'string',
  license_url: 'string',
  agreement: 'string',
  web_url: 'web',
  url: 'api',
  repository_url: 'api',
  translations_url: 'api',
  statistics_url: 'api',
  lock_url: 'api',
  links_url: 'api',
  changes_list_url: 'api',
  task_url: 'api|null',
  new_lang: 'string',
  language_code_style: 'string',
  check_flags: 'string',
  priority: 'integer',
  enforced_checks: 'array',
  restricted: 'boolean',
  repoweb: 'string',
  report_source_bugs: 'string',
  merge_style: 'string',
  commit_message: 'string',
  add_message: 'string',
  delete_message: 'string',
  merge_message: 'string',
  addon_message: 'string',
  pull_message: 'string',
  allow_translation_propagation: 'boolean',
  manage_units: 'boolean',
  enable_suggestions: 'boolean',
  suggestion_voting: 'boolean',
  suggestion_autoaccept: 'integer',
  push_on_commit: 'boolean',
  commit_pending_age: 'integer',
  auto_lock_error: 'boolean',
  language_regex: 'string',
  variant_regex: 'string',
  addons: 'array',
  is_glossary: 'boolean',
  glossary_color: 'string',
};
const TRANSLATION_SHAPE: Shape = {
  language: LANGUAGE_SHAPE,
  component: COMPONENT_SHAPE,
  language_code: 'string',
  id: 'integer',
  filename: 'string',
  revision: 'string',
  web_url: 'web',
  share_url: 'web',
  translate_url: 'web',
  url: 'api',
  is_template: 'boolean',
  is_source: 'boolean',
  total: 'integer',
  total_words: 'integer',
  translated: 'integer',
  translated_words: 'integer',
  translated_percent: 'number',
  fuzzy: 'integer',
  fuzzy_words: 'integer',
  fuzzy_percent: 'number',
  failing_checks: 'integer',
  failing_checks_words: 'integer',
  failing_checks_percent: 'number',
  have_suggestion: 'integer',
  have_comment: 'integer',
  // "null observed"; a translation with changes may name them (Weblate: a timestamp and a display name).
  last_change: 'timestamp|null',
  last_author: 'string|null',
  repository_url: 'api',
  file_url: 'api',
  statistics_url: 'api',
  changes_list_url: 'api',
  units_list_url: 'api',
};
const UNIT_SHAPE: Shape = {
  id: 'integer',
  translation: 'api',
  source: 'string[]',
  previous_source: 'string',
  target: 'string[]',
  id_hash: 'integer',
  content_hash: 'integer',
  location: 'string',
  context: 'string',
  note: 'string',
  flags: 'string',
  extra_flags: 'string',
  explanation: 'string',
  labels: 'array',
  state: 'integer',
  fuzzy: 'boolean',
  translated: 'boolean',
  approved: 'boolean',
  pending: 'boolean',
  position: 'integer',
  has_suggestion: 'boolean',
  has_comment: 'boolean',
  has_failing_check: 'boolean',
  num_words: 'integer',
  source_unit: 'api',
  priority: 'integer',
  web_url: 'web',
  url: 'api',
  timestamp: 'timestamp',
};
const CHANGE_SHAPE: Shape = {
  id: 'integer',
  unit: 'api|null',
  component: 'api',
  translation: 'api',
  user: 'api|null',
  author: 'api|null',
  timestamp: 'timestamp',
  action: 'integer',
  action_name: 'string',
  target: 'string',
  url: 'api',
};
const SUBSCRIPTION_SHAPE: Shape = {
  id: 'integer',
  notification: 'string',
  scope: 'integer',
  frequency: 'integer',
  project: 'null',
  component: 'null',
};
const envelopeShape = (): Shape => ({ count: 'integer', next: 'api|null', previous: 'api|null', results: 'array' });

/** The path of an absolute API link, without its query (which `api` kind checks carry format=api). */
const pathOf = (link: string): string => new URL(link).pathname;

describe('imported component: the spec\'s endpoints on data imported from git', () => {
  let app: TestApp;
  let origin: string;
  let sandbox: GitSandbox;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  const componentPath = `/api/components/${PROJECT.slug}/${SLUG}/`;
  const translationPath = (code: string) => `/api/translations/${PROJECT.slug}/${SLUG}/${code}/`;
  const link = (path: string) => apiLink(origin, path);

  const waitForTask = (taskUrl: string): Promise<Record<string, unknown>> => waitForSomeTask(app, taskUrl, admin);

  /** Every page of a list, following `next` links, with page_size as given. */
  async function allPages(path: string, pageSize: number): Promise<Response[]> {
    const pages: Response[] = [];
    let next: string | null = `${path}?page_size=${pageSize}`;
    while (next) {
      const response: Response = await app.http().get(next.startsWith('http') ? next.slice(origin.length) : next).expect(200);
      pages.push(response);
      next = response.body.next;
      if (pages.length > 100) throw new Error('runaway pagination');
    }
    return pages;
  }

  beforeAll(async () => {
    app = await createTestApp({ SITE_URL });
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
    sandbox = await createGitSandbox({
      [`sources/${SLUG}.json`]: TEMPLATE,
      [`translations/cs/${SLUG}.json`]: CS,
      [`translations/de/${SLUG}.json`]: DE,
    });
    await app.http().post('/api/projects/').set(...admin).send(PROJECT).expect(201);
    const created = await app
      .http()
      .post(`/api/projects/${PROJECT.slug}/components/`)
      .set(...admin)
      .send({
        name: 'Web App',
        slug: SLUG,
        vcs: 'git',
        repo: sandbox.upstream,
        filemask: `translations/*/${SLUG}.json`,
        template: `sources/${SLUG}.json`,
        file_format: 'json-nested',
      })
      .expect(201);
    const task = await waitForTask(created.body.task_url);
    expect(task).toMatchObject({ completed: true, result: { result: true, translations: 3, units: 3 * UNITS } });
    // A string changed upstream and pulled: the changes lists then hold both observed actions (0 and 59).
    await sandbox.commitUpstream({ [`translations/cs/${SLUG}.json`]: CS.replace('Ahoj', 'Nazdar') }, 'Update Czech greeting');
    const pulled = await app.http().post(`${componentPath}repository/`).set(...admin).send({ operation: 'pull' }).expect(200);
    expect(pulled.body).toEqual({ result: true });
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
  });

  describe('GET /api/components/<project>/<component>/', () => {
    let response: Response;
    beforeAll(async () => {
      response = await app.http().get(componentPath).expect(200);
    });

    it('answers with the spec headers and the Component shape: keys in order, value types, link kinds', () => {
      expectApiHeaders(response, ALLOW.component);
      expect(Object.keys(response.body)).toEqual(COMPONENT_KEYS);
      expect(Object.keys(response.body.project)).toEqual(PROJECT_KEYS);
      expect(Object.keys(response.body.source_language)).toEqual(LANGUAGE_KEYS);
      expect(Object.keys(response.body.source_language.plural)).toEqual(PLURAL_KEYS);
      expect(shapeErrors(response.body, COMPONENT_SHAPE, origin)).toEqual([]);
    });

    it('describes the imported repository and files as the spec\'s component table does', () => {
      const body = response.body;
      expect(body).toMatchObject({
        name: 'Web App',
        slug: SLUG,
        vcs: 'git',
        repo: sandbox.upstream,
        filemask: `translations/*/${SLUG}.json`,
        template: `sources/${SLUG}.json`,
        file_format: 'json-nested',
        // The import has finished: no task runs.
        task_url: null,
        enforced_checks: [],
        addons: [],
      });
      expect(body.branch).toBe('main');
      expect(body.slug).toBe(pathOf(body.url).split('/').filter(Boolean).at(-1));
      expect(body.url).toBe(link(componentPath));
      for (const [field, sub] of [
        ['repository_url', 'repository/'],
        ['translations_url', 'translations/'],
        ['statistics_url', 'statistics/'],
        ['lock_url', 'lock/'],
        ['links_url', 'links/'],
        ['changes_list_url', 'changes/'],
      ]) {
        expect(body[field]).toBe(link(`${componentPath}${sub}`));
      }
      expect(body.source_language).toMatchObject({ code: 'en', url: link('/api/languages/en/'), statistics_url: link('/api/languages/en/statistics/') });
      const projectPath = `/api/projects/${PROJECT.slug}/`;
      expect(body.project).toMatchObject({
        name: PROJECT.name,
        slug: PROJECT.slug,
        web: PROJECT.web,
        url: link(projectPath),
        components_list_url: link(`${projectPath}components/`),
        repository_url: link(`${projectPath}repository/`),
        statistics_url: link(`${projectPath}statistics/`),
        changes_list_url: link(`${projectPath}changes/`),
        languages_url: link(`${projectPath}languages/`),
      });
      for (const field of ['commit_message', 'add_message', 'delete_message', 'merge_message', 'addon_message', 'pull_message']) {
        expect(body[field]).toMatch(/\{\{ ?[a-z_.]+ ?\}\}|\{%/);
      }
    });

    it('keeps the body JSON with format=api, and answers HEAD and OPTIONS with the same headers', async () => {
      const formatted = await app.http().get(`${componentPath}?format=api`).expect(200);
      expectApiHeaders(formatted, ALLOW.component);
      expect(formatted.body).toEqual(response.body);
      const head = await app.http().head(componentPath).expect(200);
      expectApiHeaders(head, ALLOW.component);
      expect(head.text ?? '').toBe('');
      const options = await app.http().options(componentPath).expect(200);
      expectApiHeaders(options, ALLOW.component);
    });
  });

  describe('GET /api/translations/<project>/<component>/<language>/', () => {
    it('answers with the spec headers and the Translation shape for every imported language', async () => {
      const component = (await app.http().get(componentPath).expect(200)).body;
      for (const code of ['en', 'cs', 'de']) {
        const response = await app.http().get(translationPath(code)).expect(200);
        expectApiHeaders(response, ALLOW.translation);
        const body = response.body;
        expect(Object.keys(body)).toEqual(TRANSLATION_KEYS);
        expect(shapeErrors(body, TRANSLATION_SHAPE, origin)).toEqual([]);
        // The nested component is the full component, as its own endpoint shows it.
        expect(body.component).toEqual(component);
        expect(body.language_code).toBe(code);
        expect(body.language.code).toBe(code);
        expect(body.language.url).toBe(link(`/api/languages/${code}/`));
        expect(body.url).toBe(link(translationPath(code)));
        expect(body.revision).toMatch(REVISION);
        expect(body.total).toBe(UNITS);
        for (const [field, sub] of [
          ['repository_url', 'repository/'],
          ['file_url', 'file/'],
          ['statistics_url', 'statistics/'],
          ['changes_list_url', 'changes/'],
          ['units_list_url', 'units/'],
        ]) {
          expect(body[field]).toBe(link(`${translationPath(code)}${sub}`));
        }
        // Percentages are numbers written with one decimal place (100.0, 0.0, 55.5).
        for (const field of ['translated_percent', 'fuzzy_percent', 'failing_checks_percent']) {
          expect(response.text).toMatch(new RegExp(`"${field}":\\d+\\.\\d[,}]`));
        }
        expect(body.failing_checks_percent).toBe(Math.round((body.failing_checks / body.total) * 1000) / 10);
      }
    });

    it('shows the source-language translation with the spec\'s invariants', async () => {
      const response = await app.http().get(translationPath('en')).expect(200);
      const body = response.body;
      expect(body).toMatchObject({ is_template: true, is_source: true, filename: `sources/${SLUG}.json`, total: UNITS, translated: UNITS });
      expect(body.translated).toBe(body.total);
      expect(response.text).toContain('"translated_percent":100.0,');
    });

    it('shows the imported state of the other languages', async () => {
      const cs = (await app.http().get(translationPath('cs')).expect(200)).body;
      expect(cs).toMatchObject({ is_template: false, is_source: false, filename: `translations/cs/${SLUG}.json`, total: UNITS, translated: UNITS - 1 });
      const de = (await app.http().get(translationPath('de')).expect(200)).body;
      expect(de).toMatchObject({ is_template: false, is_source: false, filename: `translations/de/${SLUG}.json`, total: UNITS, translated: 2 });
    });

    it('answers HEAD and OPTIONS with the same headers', async () => {
      const head = await app.http().head(translationPath('cs')).expect(200);
      expectApiHeaders(head, ALLOW.translation);
      expect(head.text ?? '').toBe('');
      expectApiHeaders(await app.http().options(translationPath('cs')).expect(200), ALLOW.translation);
    });
  });

  describe('GET /api/translations/<project>/<component>/<language>/units/', () => {
    it('lists the units with the spec headers, envelope and Unit shape', async () => {
      for (const code of ['en', 'cs', 'de']) {
        const response = await app.http().get(`${translationPath(code)}units/`).expect(200);
        expectApiHeaders(response, ALLOW.units);
        expect(Object.keys(response.body)).toEqual(ENVELOPE_KEYS);
        expect(shapeErrors(response.body, envelopeShape(), origin)).toEqual([]);
        expect(response.body).toMatchObject({ count: UNITS, next: null, previous: null });
        for (const unit of response.body.results) {
          expect(Object.keys(unit)).toEqual(UNIT_KEYS);
          expect(shapeErrors(unit, UNIT_SHAPE, origin)).toEqual([]);
          expect(unit.translation).toBe(link(translationPath(code)));
          expect(unit.url).toBe(link(`/api/units/${unit.id}/`));
          expect(unit.web_url).toMatch(new RegExp(`^${SITE_URL}/translate/${PROJECT.slug}/${SLUG}/${code}/\\?checksum=[0-9a-f]+$`));
        }
        // id_hash and content_hash are bare JSON integers (signed 64-bit, beyond JS's safe range), never
        // strings or floats: read them from the text.
        for (const field of ['id_hash', 'content_hash']) {
          const written = [...response.text.matchAll(new RegExp(`"${field}":([^,]+),`, 'g'))].map((m) => m[1]);
          expect(written).toHaveLength(UNITS);
          for (const value of written) {
            expect(value).toMatch(/^-?\d+$/);
            expect(BigInt(value) >= -(2n ** 63n) && BigInt(value) < 2n ** 63n).toBe(true);
          }
        }
        expect(response.body.results.map((u: { context: string }) => u.context)).toEqual(CONTEXTS);
      }
    });

    it('keeps count = units of the translation, positions 1..count, ordered by position across pages', async () => {
      for (const code of ['en', 'cs']) {
        const total = (await app.http().get(translationPath(code)).expect(200)).body.total;
        const pages = await allPages(`${translationPath(code)}units/`, 4);
        expect(pages).toHaveLength(Math.ceil(total / 4));
        for (const page of pages) {
          expectApiHeaders(page, ALLOW.units);
          expect(page.body.count).toBe(total);
        }
        const units = pages.flatMap((page) => page.body.results as Array<{ position: number; id: number }>);
        expect(units.map((u) => u.position)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
        expect(new Set(units.map((u) => u.id)).size).toBe(total);
        // Paging links: absolute, format=api, query keys in alphabetical order; page 1 carries no page.
        const unitsPath = `${translationPath(code)}units/`;
        expect(pages[0].body.previous).toBeNull();
        expect(pages[0].body.next).toBe(`${origin}${unitsPath}?format=api&page=2&page_size=4`);
        expect(pages[1].body.previous).toBe(`${origin}${unitsPath}?format=api&page_size=4`);
        expect(pages.at(-1)!.body.next).toBeNull();
        expect(pages.at(-1)!.body.previous).toBe(`${origin}${unitsPath}?format=api&page=${pages.length - 1}&page_size=4`);
        // Following the links (they carry format=api) gives the same JSON as the plain page.
        const viaLink = await app.http().get(pages[0].body.next.slice(origin.length)).expect(200);
        expect(viaLink.body).toEqual(pages[1].body);
      }
    });

    it('shows the source units as translated, read-only copies that are their own source units', async () => {
      const units = (await app.http().get(`${translationPath('en')}units/`).expect(200)).body.results;
      for (const unit of units) {
        expect(unit).toMatchObject({ state: 100, translated: true, fuzzy: false, approved: false, pending: false, labels: [], priority: 100 });
        expect(unit.target).toEqual(unit.source);
        expect(unit.source_unit).toBe(unit.url);
      }
    });

    it('links every translated unit to the source unit with the same context', async () => {
      const source = new Map(
        ((await app.http().get(`${translationPath('en')}units/`).expect(200)).body.results as Array<{ context: string; url: string; source: string[] }>).map(
          (u) => [u.context, u],
        ),
      );
      const cs = (await app.http().get(`${translationPath('cs')}units/`).expect(200)).body.results;
      for (const unit of cs) {
        expect(unit.source_unit).toBe(source.get(unit.context)!.url);
        expect(unit.source).toEqual(source.get(unit.context)!.source);
      }
      const greeting = cs.find((u: { context: string }) => u.context === 'greeting');
      expect(greeting).toMatchObject({ source: ['Hello, {name}!'], target: ['Nazdar, {name}!'], translated: true, fuzzy: false });
      const untranslated = cs.find((u: { context: string }) => u.context === 'about');
      expect(untranslated).toMatchObject({ target: [''], translated: false });
    });

    it('answers HEAD (no body) and OPTIONS with the same headers', async () => {
      const path = `${translationPath('cs')}units/`;
      const head = await app.http().head(path).expect(200);
      expectApiHeaders(head, ALLOW.units);
      expect(head.text ?? '').toBe('');
      const options = await app.http().options(path).expect(200);
      expectApiHeaders(options, ALLOW.units);
      expect(Object.keys(options.body)).toEqual(['name', 'description', 'renders', 'parses']);
      const formatted = await app.http().get(`${path}?format=api`).expect(200);
      expectApiHeaders(formatted, ALLOW.units);
      expect(formatted.body).toEqual((await app.http().get(path).expect(200)).body);
    });
  });

  describe('GET /api/translations/<project>/<component>/<language>/changes/', () => {
    it('lists the changes with the spec headers, envelope and Change shape, ascending by id and time', async () => {
      for (const code of ['en', 'cs', 'de']) {
        const response = await app.http().get(`${translationPath(code)}changes/`).expect(200);
        expectApiHeaders(response, ALLOW.changes);
        expect(Object.keys(response.body)).toEqual(ENVELOPE_KEYS);
        expect(shapeErrors(response.body, envelopeShape(), origin)).toEqual([]);
        const changes = response.body.results as Array<Record<string, unknown> & { id: number; timestamp: string }>;
        expect(response.body.count).toBe(changes.length);
        expect(changes.length).toBeGreaterThan(0);
        for (const change of changes) {
          expect(Object.keys(change)).toEqual(CHANGE_KEYS);
          expect(shapeErrors(change, CHANGE_SHAPE, origin)).toEqual([]);
          // Rule 2: every item belongs to the addressed translation.
          expect(change.translation).toBe(link(translationPath(code)));
          expect(change.component).toBe(link(componentPath));
          expect(change.url).toBe(link(`/api/changes/${change.id}/`));
        }
        const ids = changes.map((c) => c.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        const timestamps = changes.map((c) => c.timestamp);
        expect(timestamps).toEqual([...timestamps].sort());
      }
    });

    it('covers the component\'s changes for that language (rule 2)', async () => {
      const component = (await app.http().get(`${componentPath}changes/?page_size=1000`).expect(200)).body.results as Array<{ translation: string | null }>;
      for (const code of ['en', 'cs', 'de']) {
        const translation = (await app.http().get(`${translationPath(code)}changes/?page_size=1000`).expect(200)).body.results;
        expect(translation).toEqual(component.filter((change) => change.translation === link(translationPath(code))));
      }
    });

    it('shows the observed actions: 0 "Resource update" and 59 "String updated in the repository"', async () => {
      const changes = (await app.http().get(`${translationPath('cs')}changes/`).expect(200)).body.results as Array<Record<string, unknown>>;
      const resourceUpdates = changes.filter((c) => c.action === 0);
      expect(resourceUpdates.length).toBeGreaterThanOrEqual(1);
      for (const change of resourceUpdates) {
        expect(change).toMatchObject({ action_name: 'Resource update', unit: null, target: '' });
      }
      const updated = changes.filter((c) => c.action === 59);
      expect(updated).toHaveLength(1);
      const greeting = (await app.http().get(`${translationPath('cs')}units/`).expect(200)).body.results.find(
        (u: { context: string }) => u.context === 'greeting',
      );
      expect(updated[0]).toMatchObject({ action_name: 'String updated in the repository', unit: greeting.url, target: 'Nazdar, {name}!' });
      for (const change of changes.filter((c) => c.action === 0 || c.action === 59)) {
        // Imported and pulled by the service itself.
        expect(change).toMatchObject({ user: null, author: null });
      }
    });

    it('answers HEAD (no body) and OPTIONS with the same headers', async () => {
      const path = `${translationPath('cs')}changes/`;
      const head = await app.http().head(path).expect(200);
      expectApiHeaders(head, ALLOW.changes);
      expect(head.text ?? '').toBe('');
      const options = await app.http().options(path).expect(200);
      expectApiHeaders(options, ALLOW.changes);
      expect(Object.keys(options.body)).toEqual(['name', 'description', 'renders', 'parses']);
      const formatted = await app.http().get(`${path}?format=api`).expect(200);
      expectApiHeaders(formatted, ALLOW.changes);
      expect(formatted.body).toEqual((await app.http().get(path).expect(200)).body);
    });
  });

  it('has a shape check that reports key order, wrong types and links without format=api (self-check)', () => {
    const shape: Shape = { a: 'string', b: 'integer', c: 'api', d: 'web|null', e: { f: 'boolean' } };
    expect(shapeErrors({ a: 'x', b: 1, c: link('/api/x/'), d: null, e: { f: true } }, shape, origin)).toEqual([]);
    expect(
      shapeErrors({ b: 1.5, a: 'x', c: `${origin}/api/x/`, d: `${origin}/api/x/?format=api`, e: { f: 1 } }, shape, origin),
    ).toEqual([
      '$: keys ["b","a","c","d","e"]',
      '$.b: expected integer, got 1.5',
      `$.c: expected api, got "${origin}/api/x/"`,
      `$.d: expected web|null, got "${origin}/api/x/?format=api"`,
      '$.e.f: expected boolean, got 1',
    ]);
  });

  describe('GET /api/users/<username>/notifications/', () => {
    it('lists the importing administrator\'s subscriptions with the spec headers, shape and rule 3', async () => {
      const response = await app.http().get('/api/users/admin/notifications/').set(...admin).expect(200);
      expectApiHeaders(response, ALLOW.notifications);
      expect(Object.keys(response.body)).toEqual(ENVELOPE_KEYS);
      expect(shapeErrors(response.body, envelopeShape(), origin)).toEqual([]);
      const results = response.body.results as Array<{ notification: string; scope: number; frequency: number }>;
      expect(response.body.count).toBe(results.length);
      for (const item of results) {
        expect(Object.keys(item)).toEqual(SUBSCRIPTION_KEYS);
        expect(shapeErrors(item, SUBSCRIPTION_SHAPE, origin)).toEqual([]);
      }
      const kinds = (scope: number) => results.filter((s) => s.scope === scope).map((s) => s.notification).sort();
      expect(kinds(10)).toEqual([...SCOPE_10_KINDS].sort());
      expect(kinds(20)).toEqual([...SCOPE_20_KINDS].sort());
      const head = await app.http().head('/api/users/admin/notifications/').set(...admin).expect(200);
      expectApiHeaders(head, ALLOW.notifications);
      expectApiHeaders(await app.http().options('/api/users/admin/notifications/').set(...admin).expect(200), ALLOW.notifications);
    });
  });
});
