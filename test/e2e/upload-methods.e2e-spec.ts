import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from '../support/contract';
import { createProject } from '../support/factories';
import { waitForTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

// Upload methods and counters (weblate-api.md §10.8, formats.md §5; issue 11 item 5, issue 12 "Upload
// counters"): Weblate's counters for translate/fuzzy/add/source, untranslated entries taking no part, the
// plural check, `method=source` updating a PO component's files from a new POT, and `method=add` on both
// kinds of component.

const CS_PLURAL = 'nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;';
const header = (plural: string | null) =>
  `msgid ""\nmsgstr ""\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n${plural === null ? '' : `"Plural-Forms: ${plural}\\n"\n`}`;
const entry = (source: string, target = '', flags = '') => `\n${flags ? `#, ${flags}\n` : ''}msgid "${source}"\nmsgstr "${target}"\n`;
const POT = header(null) + entry('Hello') + entry('Bye') + entry('Yes') + entry('No');
const CS_PO = header(CS_PLURAL) + entry('Hello', 'Ahoj') + entry('Bye') + entry('Yes') + entry('No');
const COUNT_KEYS = ['not_found', 'skipped', 'accepted', 'total', 'result', 'count'];
const NOT_AVAILABLE = { method: ['This method is not available here. Check your permissions or use different translation object.'] };

describe('upload methods and counters', () => {
  let app: TestApp;
  let db: DataSource;
  let sandbox: GitSandbox;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  const upload = (path: string, content: string, fields: Record<string, string> = {}, filename = 'cs.po') => {
    let request = app.http().post(`/api/translations/upm/${path}/file/`).set(...admin);
    for (const [name, value] of Object.entries(fields)) request = request.field(name, value);
    return request.attach('file', Buffer.from(content), filename);
  };
  const units = async (component: string, language: string): Promise<Array<{ context: string; source: string; target: string; state: number }>> =>
    db.query(
      `SELECT u.context, u.source, u.target, u.state FROM units u JOIN translations t ON t.id = u.translation_id
         JOIN languages l ON l.id = t.language_id JOIN components c ON c.id = t.component_id
        WHERE c.slug = $1 AND l.code = $2 ORDER BY u.position, u.id`,
      [component, language],
    );
  const history = async (component: string): Promise<unknown> =>
    db.query('SELECT count(*)::int AS n FROM changes ch JOIN components c ON c.id = ch.component_id WHERE c.slug = $1', [component]);

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    sandbox = await createGitSandbox({
      'po/messages.pot': POT,
      'po/cs.po': CS_PO,
      'json/en.json': '{"hello": "Hello", "bye": "Bye"}\n',
      'json/cs.json': '{"hello": "Ahoj"}\n',
    });
    await createProject(db, { name: 'Upload methods', slug: 'upm' });
    const create = async (body: Record<string, unknown>) => {
      const created = await app.http().post('/api/projects/upm/components/').set(...admin).send({ repo: sandbox.upstream, ...body }).expect(201);
      await waitForTask(app, created.body.task_url);
    };
    await create({ name: 'Po', slug: 'po', filemask: 'po/*.po', new_base: 'po/messages.pot', file_format: 'po', push: sandbox.upstream });
    await create({ name: 'Json', slug: 'json', filemask: 'json/*.json', template: 'json/en.json', file_format: 'json', manage_units: true, edit_template: true });
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
  });

  it('counts only the translated entries of the file: a PO with one new translation is accepted 1 of 4', async () => {
    const file = header(CS_PLURAL) + entry('Hello') + entry('Bye', 'Nashle') + entry('Yes') + entry('No');
    const first = await upload('po/cs', file).expect(200);
    expect(Object.keys(first.body)).toEqual(COUNT_KEYS);
    expect(first.body).toEqual({ not_found: 0, skipped: 0, accepted: 1, total: 4, result: true, count: 4 });
    // The same file again: the one translated entry is identical now (skipped), the untranslated ones are not skipped.
    const again = await upload('po/cs', file, { conflicts: 'ignore' }).expect(200);
    expect(again.body).toEqual({ not_found: 0, skipped: 1, accepted: 0, total: 4, result: false, count: 4 });
  });

  it('leaves fuzzy entries out unless fuzzy=process, which imports them as needing editing; unknown strings are not_found', async () => {
    const file = header(CS_PLURAL) + entry('Yes', 'Ano', 'fuzzy') + entry('Unknown', 'Neznámý');
    expect((await upload('po/cs', file).expect(200)).body).toEqual({ not_found: 1, skipped: 0, accepted: 0, total: 2, result: false, count: 2 });
    expect((await upload('po/cs', file, { fuzzy: 'process' }).expect(200)).body).toEqual({ not_found: 1, skipped: 0, accepted: 1, total: 2, result: true, count: 2 });
    expect((await units('po', 'cs')).find((unit) => unit.source === 'Yes')).toMatchObject({ target: 'Ano', state: 10 });
  });

  it('refuses a PO whose Plural-Forms differ from the translation’s, changing nothing', async () => {
    const before = [await units('po', 'cs'), await history('po')];
    const file = header('nplurals=2; plural=(n != 1);') + entry('No', 'Ne');
    expect((await upload('po/cs', file).expect(400)).body).toEqual({ file: ['Plural forms do not match the language.'] });
    expect([await units('po', 'cs'), await history('po')]).toEqual(before);
    // The same formula spelled with other spacing is the same plural.
    const spaced = header('nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2 ;') + entry('No', 'Ne');
    expect((await upload('po/cs', spaced).expect(200)).body).toMatchObject({ accepted: 1 });
  });

  it('detects a PO from its content when the file name tells nothing, and reads it into a JSON component', async () => {
    const file = `${header(null)}\nmsgctxt "bye"\nmsgid "Bye"\nmsgstr "Nashle"\n`;
    expect((await upload('json/cs', file, {}, 'blob').expect(200)).body).toEqual({ not_found: 0, skipped: 0, accepted: 1, total: 1, result: true, count: 1 });
    expect((await units('json', 'cs')).find((unit) => unit.context === 'bye')).toMatchObject({ target: 'Nashle', state: 20 });
    // Neither the name nor the first bytes name a format the file parses in: the component format's error.
    expect((await upload('json/cs', 'neither json nor po', {}, 'blob').expect(400)).body.file[0]).toMatch(/^Failed to parse uploaded file/);
  });

  it('method=add on a monolingual component adds new keys to the template and every translation, on the source language only', async () => {
    const refused = await upload('json/cs', '{"later": "Později"}', { method: 'add' }, 'cs.json').expect(400);
    expect(refused.body).toEqual({ method: ['This method is not available here. Try adding to the source instead of the translation.'] });
    const added = await upload('json/en', '{"hello": "Hello", "later": "Later", "empty": ""}', { method: 'add' }, 'en.json').expect(200);
    expect(added.body).toEqual({ not_found: 0, skipped: 1, accepted: 1, total: 3, result: true, count: 3 });
    expect((await units('json', 'en')).map((unit) => [unit.context, unit.source, unit.state])).toEqual([
      ['hello', 'Hello', 100],
      ['bye', 'Bye', 100],
      ['later', 'Later', 100],
    ]);
    expect((await units('json', 'cs')).find((unit) => unit.context === 'later')).toEqual({ context: 'later', source: 'Later', target: '', state: 0 });
    const recorded = await db.query('SELECT count(*)::int AS n FROM changes ch JOIN units u ON u.id = ch.unit_id WHERE u.context = $1 AND ch.action = 31', ['later']);
    expect(recorded).toEqual([{ n: 2 }]);
    // Committed: the template file gains the key.
    await app.http().post('/api/components/upm/json/repository/').set(...admin).send({ operation: 'commit' }).expect(200);
    expect((await app.http().get('/api/translations/upm/json/en/file/').set(...admin).expect(200)).text).toBe('{"hello": "Hello", "bye": "Bye", "later": "Later"}\n');
  });

  it('method=add on a bilingual component needs manage_units, then adds the pairs it lacks with their targets', async () => {
    const file = header(CS_PLURAL) + entry('Hello', 'Ahoj') + entry('Thanks', 'Díky') + entry('Empty');
    // Weblate's hint for `add` off the source language, whatever the reason.
    const refused = await upload('po/cs', file, { method: 'add' }).expect(400);
    expect(refused.body).toEqual({ method: ['This method is not available here. Try adding to the source instead of the translation.'] });
    await app.http().patch('/api/components/upm/po/').set(...admin).send({ manage_units: true }).expect(200);
    expect((await upload('po/cs', file, { method: 'add' }).expect(200)).body).toEqual({ not_found: 0, skipped: 1, accepted: 1, total: 3, result: true, count: 3 });
    expect((await units('po', 'cs')).find((unit) => unit.source === 'Thanks')).toMatchObject({ target: 'Díky', state: 20 });
    await app.http().patch('/api/components/upm/po/').set(...admin).send({ manage_units: false }).expect(200);
  });

  it('method=source is refused off the source language and on formats without a source update', async () => {
    expect((await upload('po/cs', POT, { method: 'source' }).expect(400)).body).toEqual({ method: ['Source upload is supported only on source language.'] });
    expect((await upload('json/en', '{"hello": "Hi"}', { method: 'source' }, 'en.json').expect(400)).body).toEqual(NOT_AVAILABLE);
    expect((await upload('po/en', 'msgid "broken', { method: 'source' }, 'messages.pot').expect(400)).body.file[0]).toMatch(/^Failed to parse uploaded file/);
  });

  it('method=source runs msgmerge over every translation file from a new POT, replaces new_base and records 74', async () => {
    // No is gone from the template, Thanks became Thanks!, Later is new; translations of the strings that stay are kept.
    const pot = header(null) + entry('Hello') + entry('Bye') + entry('Yes') + entry('Thanks!') + '\n#: src/later.c:3\nmsgid "Later"\nmsgstr ""\n';
    const response = await upload('po/en', pot, { method: 'source' }, 'messages.pot').expect(200);
    expect(response.body).toEqual({ not_found: 0, skipped: 0, accepted: 5, total: 5, result: true, count: 5 });
    expect((await units('po', 'en')).map((unit) => unit.source).sort()).toEqual(['Bye', 'Hello', 'Later', 'Thanks!', 'Yes']);
    const cs = await units('po', 'cs');
    expect(cs.map((unit) => [unit.source, unit.target]).sort()).toEqual([
      ['Bye', 'Nashle'],
      ['Hello', 'Ahoj'],
      ['Later', ''],
      ['Thanks!', 'Díky'],
      ['Yes', 'Ano'],
    ]);
    const changes = await app.http().get('/api/components/upm/po/changes/?action=74').expect(200);
    expect(changes.body.results.map((change: { translation: string }) => new URL(change.translation).pathname).sort()).toEqual([
      '/api/translations/upm/po/cs/',
      '/api/translations/upm/po/en/',
    ]);
    // msgmerge's fuzzy matching: the changed string keeps the old translation, needs editing, and shows the old source.
    const [thanks] = await db.query(
      `SELECT u.state, u.previous_source FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
         JOIN components c ON c.id = t.component_id WHERE c.slug = 'po' AND l.code = 'cs' AND u.source = 'Thanks!'`,
    );
    expect(thanks).toEqual({ state: 10, previous_source: 'Thanks' });
    const file = (await app.http().get('/api/translations/upm/po/cs/file/').set(...admin).expect(200)).text;
    expect(file).toContain('#: src/later.c:3\nmsgid "Later"\nmsgstr ""\n');
    expect(file).toContain('\n#, fuzzy\n#| msgid "Thanks"\nmsgid "Thanks!"\nmsgstr "Díky"\n');
    // The string the POT dropped is kept as an obsolete entry, and is no string of the translation any more.
    expect(file).toContain('\n#~ msgid "No"\n#~ msgstr "Ne"\n');
    expect(cs.some((unit) => unit.source === 'No')).toBe(false);
    // Pushed and cloned: the upload replaced new_base byte for byte.
    expect((await app.http().post('/api/components/upm/po/repository/').set(...admin).send({ operation: 'push' }).expect(200)).body).toEqual({ result: true });
    await sandbox.git(sandbox.root, ['clone', '--quiet', sandbox.upstream, sandbox.clonePath]);
    expect(await readFile(path.join(sandbox.clonePath, 'po/messages.pot'), 'utf8')).toBe(pot);
    expect(await readFile(path.join(sandbox.clonePath, 'po/cs.po'), 'utf8')).toBe(file);
    const checked = spawnSync('msgfmt', ['-c', '-o', '/dev/null', path.join(sandbox.clonePath, 'po/cs.po')], { encoding: 'utf8' });
    // Accepted (exit 0); the fixture's short header only draws warnings about missing header fields.
    expect([checked.status, checked.stderr.split('\n').filter((line) => line !== '' && !/header field '[\w-]+' missing in header/.test(line))]).toEqual([0, []]);
  });

  it('method=replace commits pending edits, makes the upload the file byte for byte, re-reads it and records 54', async () => {
    // A pending edit: it must reach the history before the file is replaced (nothing acknowledged is lost).
    const later = (await app.http().get('/api/translations/upm/po/cs/units/?q=source:Later').expect(200)).body.results[0];
    await app.http().patch(`/api/units/${later.id}/`).set(...admin).send({ target: ['Později'], state: 20 }).expect(200);
    const uploadsBefore = (await app.http().get('/api/translations/upm/po/cs/changes/?action=9').expect(200)).body.count;
    const file = header(CS_PLURAL) + entry('Hello', 'Nazdar') + entry('Bye', 'Nashle') + '\n# kept as uploaded\nmsgid "Extra"\nmsgstr "Navíc"\n' + entry('Empty');
    const response = await upload('po/cs', file, { method: 'replace' }).expect(200);
    // Weblate's handle_replace: accepted = the translation's strings after the re-read, total = the file's.
    expect(response.body).toEqual({ not_found: 0, skipped: 0, accepted: 4, total: 4, result: true, count: 4 });
    expect((await units('po', 'cs')).map((unit) => [unit.source, unit.target, unit.state])).toEqual([
      ['Hello', 'Nazdar', 20],
      ['Bye', 'Nashle', 20],
      ['Extra', 'Navíc', 20],
      ['Empty', '', 0],
    ]);
    const replaced = await app.http().get('/api/translations/upm/po/cs/changes/?action=54').expect(200);
    expect(replaced.body.count).toBe(1);
    expect(replaced.body.results[0]).toMatchObject({ action: 54, action_name: 'Replaced file by upload', unit: null });
    expect(new URL(replaced.body.results[0].user).pathname).toBe(new URL(replaced.body.results[0].author).pathname);
    // No 9 "Translation uploaded" per string any more: the re-read records 59 for each string the file changed.
    expect((await app.http().get('/api/translations/upm/po/cs/changes/?action=9').expect(200)).body.count).toBe(uploadsBefore);
    const reread = (await app.http().get('/api/translations/upm/po/cs/changes/?action=59').expect(200)).body.results;
    expect(reread.map((change: { target: string }) => change.target)).toContain('Nazdar');
    // Pushed and cloned: the file is the upload's bytes, and the pending edit was committed before it.
    expect((await app.http().post('/api/components/upm/po/repository/').set(...admin).send({ operation: 'push' }).expect(200)).body).toEqual({ result: true });
    const clone = `${sandbox.clonePath}-replace`;
    await sandbox.git(sandbox.root, ['clone', '--quiet', sandbox.upstream, clone]);
    expect(await readFile(path.join(clone, 'po/cs.po'), 'utf8')).toBe(file);
    expect(await sandbox.git(clone, ['log', '-p', '--format=%an', '-2', '--', 'po/cs.po'])).toContain('+msgstr "Později"');
  });

  it('method=replace refuses a file that does not read in the component format, changing nothing', async () => {
    const before = [await units('po', 'cs'), await history('po')];
    expect((await upload('po/cs', 'msgid "broken', { method: 'replace' }).expect(400)).body.file[0]).toMatch(/^Failed to parse uploaded file/);
    // Another format is not tried for replace (Weblate loads the upload with the component's format only).
    expect((await upload('po/cs', '{"hello": "Ahoj"}', { method: 'replace' }, 'cs.json').expect(400)).body.file[0]).toMatch(/^Failed to parse uploaded file/);
    expect([await units('po', 'cs'), await history('po')]).toEqual(before);
  });
});
