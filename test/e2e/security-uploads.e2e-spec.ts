import { once } from 'node:events';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { FileParser } from '../../src/formats/file-parser';
import { createTranslatedComponent, type SeededContent } from '../support/content-factories';
import { authHeader } from '../support/contract';
import { createTeam } from '../support/team-factories';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

// Issue 10, items 1 and 2: who may upload with which `method` and `conflicts` (Weblate 4.x
// UploadRequestSerializer.check_perms and check_upload_method_permissions, weblate-api.md §10.8), and the
// bounds on what an upload may cost (multipart fields, file size, units, string length, parse memory),
// with the server answering other requests while a file is parsed.

type Persona = 'plain' | 'translator' | 'reviewer' | 'projectAdmin';
const PERSONAS: Persona[] = ['plain', 'translator', 'reviewer', 'projectAdmin'];
const METHODS = ['translate', 'approve', 'suggest', 'fuzzy', 'replace', 'source', 'add'] as const;
const CONFLICTS = ['', 'ignore', 'replace-translated', 'replace-approved'] as const;

const NOT_AVAILABLE = { method: ['This method is not available here. Check your permissions or use different translation object.'] };
const ADD_TO_SOURCE = { method: ['This method is not available here. Try adding to the source instead of the translation.'] };
const NO_APPROVED_OVERWRITE = { conflicts: ['You can not overwrite existing approved translations.'] };
const SOURCE_ONLY = { method: ['Source upload is supported only on source language.'] };
// The seeded component has no repository: a `replace` let through the rights check replaces the file (Weblate's
// handle_replace), so it is refused here for want of a working copy, changing nothing (upload.e2e-spec.ts and
// upload-methods.e2e-spec.ts replace files for real).
const NO_WORKING_COPY = { file: ['The component has no working copy yet; import it first.'] };

/**
 * What Weblate answers (weblate-api.md §10.8, check_perms in this order): replace-approved needs unit.review;
 * `source` only on the source language; translate/fuzzy need unit.edit, approve unit.review, replace
 * component.edit. `add` needs unit.add, which a monolingual component refuses on a translation (Weblate's
 * hint: add to the source instead), so everyone meets that hint. `suggest` needs suggestion.add, which every
 * signed-in user holds on a public project (the Users team's "Power user"), and changes no string.
 */
function expectedAnswer(persona: Persona, method: (typeof METHODS)[number], conflicts: (typeof CONFLICTS)[number]): { status: number; body?: object } {
  const reviews = persona === 'reviewer' || persona === 'projectAdmin';
  if (conflicts === 'replace-approved' && !reviews) return { status: 400, body: NO_APPROVED_OVERWRITE };
  if (method === 'source') return { status: 400, body: SOURCE_ONLY };
  if (method === 'add') return { status: 400, body: ADD_TO_SOURCE };
  if (method === 'suggest') return { status: 200 };
  if (method === 'replace' && persona === 'projectAdmin') return { status: 400, body: NO_WORKING_COPY };
  const granted = method === 'translate' || method === 'fuzzy' || (method === 'approve' && reviews);
  return granted ? { status: 200 } : { status: 400, body: NOT_AVAILABLE };
}

/** A json-nested file setting the given dotted keys. */
function jsonFile(entries: Record<string, string>): Buffer {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entries)) {
    const parts = key.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]] = value;
  }
  return Buffer.from(JSON.stringify(root));
}

/** Everything an upload may change in a translation: its units and its history. */
async function translationState(db: DataSource, translationId: number): Promise<unknown> {
  const units = await db.query('SELECT id, target, state, pending FROM units WHERE translation_id = $1 ORDER BY id', [translationId]);
  const [{ changes }] = await db.query('SELECT count(*)::int AS changes FROM changes WHERE translation_id = $1', [translationId]);
  return { units, changes };
}

async function seedProject(db: DataSource, slug: string, units = 6): Promise<SeededContent> {
  const content = await createTranslatedComponent(db, { project: { name: slug, slug }, component: { name: 'Main', slug: 'main' }, languages: ['cs'], units });
  // One approved string, the kind `replace` and replace-approved must not touch without the rights.
  await db.query('UPDATE units SET state = 30 WHERE id = $1', [content.translations[0].unitIds[0]]);
  return content;
}

describe('upload rights: every method × conflicts against every persona (issue 10, item 1)', () => {
  let app: TestApp;
  let db: DataSource;
  let content: SeededContent;
  const tokens = {} as Record<Persona, string>;

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    content = await seedProject(db, 'public');
    for (const persona of PERSONAS) tokens[persona] = (await createUserWithToken(db, persona)).token;
    const project = [content.project.id];
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Public translators', roles: ['Translate'], projectIds: project, members: ['translator'] });
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Public reviewers', roles: ['Review strings'], projectIds: project, members: ['reviewer'] });
    await createTeam(app, TEST_ADMIN_TOKEN, { name: 'Public admins', roles: ['Administration'], projectIds: project, members: ['projectAdmin'] });
  });

  afterAll(async () => {
    await app?.close();
  });

  const path = '/api/translations/public/main/cs/file/';
  const upload = (persona: Persona, file: Buffer, fields: Record<string, string>): Promise<Response> => {
    let request = app.http().post(path).set(...authHeader(tokens[persona]));
    for (const [name, value] of Object.entries(fields)) request = request.field(name, value);
    return request.attach('file', file, 'upload.json');
  };

  it('a plain signed-in user cannot empty a public translation with method=replace (the reported attack)', async () => {
    const translation = content.translations[0];
    const before = await translationState(db, translation.id);
    const response = await upload('plain', Buffer.from('{}'), { method: 'replace' });
    expect([response.status, response.body]).toEqual([400, NOT_AVAILABLE]);
    expect(await translationState(db, translation.id)).toEqual(before);
    // Nothing is waiting to be committed upstream either.
    expect(await db.query('SELECT count(*)::int AS n FROM units WHERE translation_id = $1 AND pending', [translation.id])).toEqual([{ n: 0 }]);
  });

  it('answers each combination as Weblate does; refused uploads change nothing', async () => {
    const translation = content.translations[0];
    let round = 0;
    const answers: string[] = [];
    const expected: string[] = [];
    for (const method of METHODS) {
      for (const conflicts of CONFLICTS) {
        for (const persona of PERSONAS) {
          round += 1;
          // Every string gets a new value, so any upload let through would change the translation.
          const file = jsonFile(Object.fromEntries(content.strings.map((string) => [string.context, `Nahráno ${round}`])));
          const fields: Record<string, string> = { method };
          if (conflicts !== '') fields.conflicts = conflicts;
          const before = await translationState(db, translation.id);
          const response = await upload(persona, file, fields);
          const want = expectedAnswer(persona, method, conflicts);
          const label = `${persona} method=${method} conflicts=${conflicts || '""'}`;
          answers.push(`${label} → ${response.status} ${want.body ? JSON.stringify(response.body) : ''}`);
          expected.push(`${label} → ${want.status} ${want.body ? JSON.stringify(want.body) : ''}`);
          if (response.status !== 200) expect({ label, state: await translationState(db, translation.id) }).toEqual({ label, state: before });
        }
      }
    }
    expect(answers).toEqual(expected);
  });

  it('lets a reviewer overwrite approved strings, and a project admin past the rights check of replace', async () => {
    const translation = content.translations[0];
    const approved = content.strings[0].context;
    const reviewed = await upload('reviewer', jsonFile({ [approved]: 'Schváleno znovu' }), { method: 'approve', conflicts: 'replace-approved' });
    expect([reviewed.status, reviewed.body.accepted]).toEqual([200, 1]);
    const before = await translationState(db, translation.id);
    const replaced = await upload('projectAdmin', Buffer.from('{}'), { method: 'replace' });
    expect([replaced.status, replaced.body]).toEqual([400, NO_WORKING_COPY]);
    expect(await translationState(db, translation.id)).toEqual(before);
  });
});

describe('upload resource limits (issue 10, item 2)', () => {
  let app: TestApp;
  let db: DataSource;
  let content: SeededContent;
  const admin = authHeader(TEST_ADMIN_TOKEN);
  const path = '/api/translations/limits/main/cs/file/';

  beforeAll(async () => {
    // Small limits keep the test data small; the mechanisms are the same at the defaults.
    app = await createTestApp({ MAX_FILE_BYTES: '16384', MAX_UNITS_PER_FILE: '50', MAX_STRING_LENGTH: '200', UPLOAD_MAX_FIELDS: '10', UPLOAD_MAX_FIELD_BYTES: '1024' });
    db = app.glossa.app.get(DataSource);
    content = await seedProject(db, 'limits');
  });

  afterAll(async () => {
    await app?.close();
  });

  /** Runs the attack and checks the answer, that the translation is unchanged and that the server still answers. */
  async function expectRefused(send: () => Promise<Response>, status: number, body: unknown): Promise<void> {
    const translationId = content.translations[0].id;
    const before = await translationState(db, translationId);
    const response = await send();
    expect([response.status, response.body]).toEqual([status, body]);
    expect(await translationState(db, translationId)).toEqual(before);
    await app.http().get('/healthz').expect(200);
  }

  const uploadFile = (file: Buffer, fields: Record<string, string> = {}) => {
    let request = app.http().post(path).set(...admin);
    for (const [name, value] of Object.entries(fields)) request = request.field(name, value);
    return request.attach('file', file, 'upload.json');
  };

  it('refuses 700 form fields after the limit, without reading them into memory', async () => {
    await expectRefused(
      () => {
        let request = app.http().post(path).set(...admin);
        for (let i = 0; i < 700; i++) request = request.field(`field${i}`, 'x'.repeat(1000));
        return request.attach('file', jsonFile({ [content.strings[1].context]: 'Ahoj' }), 'upload.json');
      },
      400,
      { detail: 'Too many form fields: an upload takes at most 10 (UPLOAD_MAX_FIELDS).' },
    );
  });

  it('refuses a form field longer than UPLOAD_MAX_FIELD_BYTES and a second file', async () => {
    await expectRefused(() => uploadFile(jsonFile({ [content.strings[1].context]: 'Ahoj' }), { author_name: 'x'.repeat(1024 * 1024) }), 400, {
      detail: 'Form field "author_name" is too long: at most 1024 bytes (UPLOAD_MAX_FIELD_BYTES).',
    });
    await expectRefused(
      () => uploadFile(jsonFile({ [content.strings[1].context]: 'Ahoj' })).attach('other', Buffer.from('{}'), 'other.json'),
      400,
      { detail: 'Only one file can be uploaded, as the field "file".' },
    );
  });

  it('refuses a file over MAX_FILE_BYTES with 413', async () => {
    const big = jsonFile({ [content.strings[1].context]: 'x'.repeat(20_000) });
    await expectRefused(() => uploadFile(big), 413, { detail: 'Uploaded translation file is too big.' });
  });

  it('refuses a file with more units than MAX_UNITS_PER_FILE, or a string longer than MAX_STRING_LENGTH, with 400', async () => {
    const text = JSON.stringify(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, 'v'])));
    // The parser stops at the 51st value.
    const column = text.indexOf('"k50":') + '"k50":'.length + 1;
    await expectRefused(() => uploadFile(Buffer.from(text)), 400, {
      file: [`Uploaded translation file is refused: more than 50 strings in one file (the limit was reached at line 1, column ${column}).`],
    });
    const long = `{"menu": {"file": {"string2": "${'x'.repeat(201)}"}}}`;
    await expectRefused(() => uploadFile(Buffer.from(long)), 400, {
      file: [`Uploaded translation file is refused: a string longer than 200 characters at line 1, column ${long.indexOf('"x') + 1}.`],
    });
  });

  it('refuses strings PostgreSQL cannot store with 400 instead of failing in the database', async () => {
    const nul = Buffer.from(`{"app": {"string1": "a\\u0000b"}}`);
    await expectRefused(() => uploadFile(nul), 400, {
      file: ['Failed to parse uploaded file: line 1: the string "app.string1" contains a NUL character (\\u0000), which cannot be stored'],
    });
  });
});

describe('uploads are parsed off the event loop (issue 10, item 2)', () => {
  let app: TestApp;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  beforeAll(async () => {
    app = await createTestApp({ MAX_UNITS_PER_FILE: '400000' });
    await seedProject(app.glossa.app.get(DataSource), 'big');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('answers /healthz while a large upload is being parsed', async () => {
    const parser = app.glossa.app.get(FileParser);
    // 150,000 keys (about 4 MB): the template knows none of them, so the upload stores nothing.
    const file = Buffer.from(JSON.stringify(Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`unknown.key${i}`, `Value number ${i}`]))));
    const started = once(parser.events, 'start');
    let parsed = false;
    parser.events.once('settled', () => (parsed = true));
    const uploading = app.http().post('/api/translations/big/main/cs/file/').set(...admin).attach('file', file, 'upload.json').then((response) => response);
    await started;
    // Were the file parsed on the main thread, nothing else could be answered until it was done.
    await app.http().get('/healthz').expect(200);
    expect(parsed).toBe(false);
    const response = await uploading;
    expect([response.status, response.body]).toEqual([200, { not_found: 150_000, skipped: 0, accepted: 0, total: 150_000, result: false, count: 150_000 }]);
    expect(parsed).toBe(true);
  });
});

describe('a parse that needs more memory than its worker may use (issue 10, item 2)', () => {
  let app: TestApp;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  beforeAll(async () => {
    app = await createTestApp({ MAX_UNITS_PER_FILE: '1000000', PARSE_WORKER_MEMORY_MB: '16' });
    await seedProject(app.glossa.app.get(DataSource), 'heavy');
  });

  afterAll(async () => {
    await app?.close();
  });

  const uploadFile = (file: Buffer) => app.http().post('/api/translations/heavy/main/cs/file/').set(...admin).attach('file', file, 'upload.json');

  it('ends that worker: 413, the server goes on, and the next upload is parsed by a fresh worker', async () => {
    // 200,000 strings (about 8 MB): several times what a 16 MB worker heap holds once parsed.
    const file = Buffer.from(JSON.stringify(Array.from({ length: 200_000 }, (_, i) => `string ${i} of an upload too large for its worker`)));
    const response = await uploadFile(file);
    expect([response.status, response.body]).toEqual([413, { detail: 'Uploaded translation file is too big: reading the file needs more than 16 MB of memory.' }]);
    await app.http().get('/healthz').expect(200);
    const next = await uploadFile(jsonFile({ 'app.string1': 'Po pádu' }));
    // Read relative to the template (formats.md §5): total is the template's 6 strings.
    expect([next.status, next.body.total]).toEqual([200, 6]);
  });
});
