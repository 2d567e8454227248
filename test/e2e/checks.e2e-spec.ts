import { DataSource } from 'typeorm';
import { ProjectAccess } from '../../src/modules/projects/project.entity';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader, expectApiHeaders } from '../support/contract';
import { ComponentRecheckScheduler } from '../../src/sync/component-recheck.scheduler';
import { createProject } from '../support/factories';
import { eventually } from '../support/server-process';
import { waitForTask } from '../support/tasks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';
import { PATIENCE_MS } from '../support/wait';

// Quality checks (issue 13 items 1 and 2; checks-suggestions-search.md §1–§4, §8): computed on import, on
// edits, uploads and flag changes; has_failing_check, the statistics, `check:` searches and Glossa's
// /api/units/<id>/checks/ agree; dismissals survive re-imports; enforced checks demote; autofixes apply.

const CHECK_KEYS = ['id', 'name', 'description', 'dismissed'];

const TEMPLATE = {
  stop: 'Hello world.',
  same: 'Open file',
  colon: 'Name:',
  fmt: 'Hello %s',
  ok: 'Save',
  nl: 'Line one\\nLine two',
};
const CS = {
  stop: 'Ahoj světe',
  same: 'Open file',
  colon: 'Jméno:',
  fmt: 'Ahoj',
  ok: 'Uložit',
  nl: 'Řádek jedna Řádek dva',
};

const json = (value: Record<string, string>): string => `${JSON.stringify(value, null, 2)}\n`;

interface UnitBody {
  id: number;
  context: string;
  target: string[];
  state: number;
  num_words: number;
  has_failing_check: boolean;
}

describe('quality checks', () => {
  let app: TestApp;
  let db: DataSource;
  let sandbox: GitSandbox;
  let otherSandbox: GitSandbox;
  let plainToken: string;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  const units = async (q = '', component = 'app'): Promise<UnitBody[]> =>
    (await app.http().get(`/api/translations/chk/${component}/cs/units/`).query(q === '' ? {} : { q }).set(...admin).expect(200)).body.results;
  const unit = async (context: string, component = 'app'): Promise<UnitBody> => (await units(`key:=${context}`, component))[0];
  const checksOf = async (id: number): Promise<Array<{ id: string; dismissed: boolean }>> => {
    const response = await app.http().get(`/api/units/${id}/checks/`).set(...admin).expect(200);
    expectApiHeaders(response, 'GET, HEAD, OPTIONS');
    expect(Object.keys(response.body)).toEqual(['count', 'next', 'previous', 'results']);
    for (const check of response.body.results) expect(Object.keys(check)).toEqual(CHECK_KEYS);
    return response.body.results;
  };
  const activeIds = async (context: string): Promise<string[]> => (await checksOf((await unit(context)).id)).filter((c) => !c.dismissed).map((c) => c.id);
  /** Waits (polling, with a deadline) until a string's active checks are these: the background recheck has run. */
  const untilActive = (context: string, expected: string[]): Promise<true> =>
    eventually(async () => (JSON.stringify(await activeIds(context)) === JSON.stringify(expected) ? true : undefined), PATIENCE_MS, `checks of ${context}`);
  const patch = (id: number, target: string, state = 20) => app.http().patch(`/api/units/${id}/`).set(...admin).send({ target: [target], state });
  const createComponent = async (slug: string, repo: string): Promise<void> => {
    const created = await app
      .http()
      .post('/api/projects/chk/components/')
      .set(...admin)
      .send({ name: slug, slug, repo, filemask: 'translations/*/app.json', template: 'sources/app.json', file_format: 'json-nested' })
      .expect(201);
    await waitForTask(app, created.body.task_url, admin);
  };

  /** Component recheck jobs ever queued (the queue's rows in every state). */
  const recheckJobs = async (): Promise<number> => (await db.query("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'component-recheck'"))[0].n;
  /** Until no component recheck waits or runs: every recheck queued so far has run. */
  const allRechecksDone = (): Promise<true> =>
    eventually(
      async () =>
        (await db.query("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'component-recheck' AND state IN ('created', 'retry', 'active')"))[0].n === 0 ? true : undefined,
      PATIENCE_MS,
      'the queued rechecks',
    );

  /** Translation statistics agree with the units' has_failing_check: count, source words and percent. */
  const expectStatisticsAgree = async (): Promise<number> => {
    const all = await units();
    const failing = all.filter((u) => u.has_failing_check);
    const translation = (await app.http().get('/api/translations/chk/app/cs/').set(...admin).expect(200)).body;
    expect(translation.failing_checks).toBe(failing.length);
    expect(translation.failing_checks_words).toBe(failing.reduce((sum, u) => sum + u.num_words, 0));
    expect(translation.failing_checks_percent).toBe(Math.floor((failing.length / all.length) * 1000) / 10);
    const statistics = (await app.http().get('/api/translations/chk/app/cs/statistics/').set(...admin).expect(200)).body;
    expect(statistics.failing).toBe(failing.length);
    expect(statistics.failing_percent).toBe(translation.failing_checks_percent);
    expect((await units('has:check')).map((u) => u.context).sort()).toEqual(failing.map((u) => u.context).sort());
    return failing.length;
  };

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    plainToken = (await createUserWithToken(db, 'plain')).token;
    await createProject(db, { name: 'Checks', slug: 'chk', accessControl: ProjectAccess.Protected });
    sandbox = await createGitSandbox({ 'sources/app.json': json(TEMPLATE), 'translations/cs/app.json': json(CS) });
    otherSandbox = await createGitSandbox({ 'sources/app.json': json({ ok: 'Save' }), 'translations/cs/app.json': json({ ok: 'Uložit soubor' }) });
    await createComponent('app', sandbox.upstream);
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
    await otherSandbox?.cleanup();
  });

  it('computes checks on import: has_failing_check, the checks endpoint, statistics and check: searches agree', async () => {
    expect(await activeIds('stop')).toEqual(['end_stop']);
    expect(await activeIds('same')).toEqual(['same']);
    expect(await activeIds('colon')).toEqual([]);
    expect(await activeIds('nl')).toEqual(['escaped_newline']);
    // c-format is opt-in: nothing until a flag enables it.
    expect(await activeIds('fmt')).toEqual([]);
    expect((await unit('stop')).has_failing_check).toBe(true);
    expect((await unit('ok')).has_failing_check).toBe(false);
    expect(await expectStatisticsAgree()).toBe(3);
    expect((await units('check:end_stop')).map((u) => u.context)).toEqual(['stop']);
    expect((await units('check:END_STOP')).map((u) => u.context)).toEqual(['stop']);
    expect(await units('check:c_format')).toEqual([]);
    const detail = await app.http().get(`/api/units/${(await unit('stop')).id}/checks/`).set(...admin).expect(200);
    expect(detail.body.results).toEqual([{ id: 'end_stop', name: 'Mismatched full stop', description: 'Source and translation do not both end with a full stop', dismissed: false }]);
  });

  it('rechecks a whole component in the background when its check_flags change', async () => {
    const response = await app.http().patch('/api/components/chk/app/').set(...admin).send({ check_flags: 'c-format, ignore-end-stop' }).expect(200);
    expect(response.body.check_flags).toBe('c-format, ignore-end-stop');
    // A component this small is rechecked in one batch (one transaction): once one string shows it, all do.
    await untilActive('fmt', ['c_format']);
    expect(await activeIds('stop')).toEqual([]);
    expect(await expectStatisticsAgree()).toBe(3);
    await app.http().patch('/api/components/chk/app/').set(...admin).send({ check_flags: 'c-format' }).expect(200);
    await untilActive('stop', ['end_stop']);
    expect(await expectStatisticsAgree()).toBe(4);
  });

  it('coalesces rechecks of a component: the last flags win, a waiting recheck covers later changes', async () => {
    // Three changes in a row: whichever rechecks run, the last one reads the last flags.
    for (const flags of ['ignore-all-checks', 'c-format, ignore-same', 'c-format']) {
      await app.http().patch('/api/components/chk/app/').set(...admin).send({ check_flags: flags }).expect(200);
    }
    // Each PATCH committed its recheck job before it answered, so once none waits or runs, the last one has
    // run. (Waiting for the final checks instead would not do: they are also the checks before these changes,
    // so such a wait could end before the first recheck started and race the rechecks that follow.)
    await allRechecksDone();
    expect(await activeIds('same')).toEqual(['same']);
    expect(await activeIds('fmt')).toEqual(['c_format']);
    expect(await expectStatisticsAgree()).toBe(4);
    // A second request while one is waiting queues nothing.
    const rechecks = app.glossa.app.get(ComponentRecheckScheduler);
    const [{ id }]: Array<{ id: number }> = await db.query("SELECT id FROM components WHERE slug = 'app' AND project_id = (SELECT id FROM projects WHERE slug = 'chk')");
    const before = await recheckJobs();
    const queued = await db.transaction(async (manager) => [await rechecks.scheduleRecheck(id, manager), await rechecks.scheduleRecheck(id, manager)]);
    expect(queued).toEqual([true, false]);
    expect(await recheckJobs()).toBe(before + 1);
    await allRechecksDone();
    // Running a recheck again changes nothing (a retried job is harmless).
    await rechecks.recheck(id);
    await rechecks.recheck(id);
    expect(await activeIds('fmt')).toEqual(['c_format']);
    expect(await activeIds('same')).toEqual(['same']);
    expect(await expectStatisticsAgree()).toBe(4);
  });

  it('queues the recheck in the transaction that saves check_flags: the job exists iff the change committed', async () => {
    const rechecks = app.glossa.app.get(ComponentRecheckScheduler);
    const flags = async (): Promise<string> =>
      (await db.query("SELECT check_flags FROM components WHERE slug = 'app' AND project_id = (SELECT id FROM projects WHERE slug = 'chk')"))[0].check_flags;
    await allRechecksDone();
    const before = await recheckJobs();
    // The job is inserted, then the request fails before its transaction commits (as a crash would): the
    // saved flags and the job row go together.
    const original = rechecks.scheduleRecheck;
    const managers: unknown[] = [];
    rechecks.scheduleRecheck = async (componentId, manager) => {
      managers.push(manager);
      expect(await original.call(rechecks, componentId, manager)).toBe(true);
      throw new Error('crash after the job was queued');
    };
    try {
      await app.http().patch('/api/components/chk/app/').set(...admin).send({ check_flags: 'c-format, ignore-same' }).expect(500);
    } finally {
      rechecks.scheduleRecheck = original;
    }
    // The send was given the request's transaction (the one that saves the component).
    expect(managers.length).toBe(1);
    expect(managers[0]).toBeDefined();
    expect(await flags()).toBe('c-format');
    expect(await recheckJobs()).toBe(before);
    // Committed: flags and job both.
    await app.http().patch('/api/components/chk/app/').set(...admin).send({ check_flags: 'c-format, ignore-same' }).expect(200);
    expect(await flags()).toBe('c-format, ignore-same');
    expect(await recheckJobs()).toBe(before + 1);
    await untilActive('same', []);
    await app.http().patch('/api/components/chk/app/').set(...admin).send({ check_flags: 'c-format' }).expect(200);
    await untilActive('same', ['same']);
    expect(await expectStatisticsAgree()).toBe(4);
  });

  it("rechecks a string's translations when the source unit's extra_flags change", async () => {
    const [source] = (await app.http().get('/api/translations/chk/app/en/units/').query({ q: 'key:=fmt' }).set(...admin).expect(200)).body.results;
    await app.http().patch(`/api/units/${source.id}/`).set(...admin).send({ extra_flags: 'ignore-c-format' }).expect(200);
    expect(await activeIds('fmt')).toEqual([]);
    await app.http().patch(`/api/units/${source.id}/`).set(...admin).send({ extra_flags: '' }).expect(200);
    expect(await activeIds('fmt')).toEqual(['c_format']);
    expect(await expectStatisticsAgree()).toBe(4);
  });

  it('rechecks on every edit: a fixed string clears, a broken one fails', async () => {
    const fmt = await unit('fmt');
    expect((await patch(fmt.id, 'Ahoj %s').expect(200)).body).toMatchObject({ target: ['Ahoj %s'], state: 20 });
    expect(await activeIds('fmt')).toEqual([]);
    const colon = await unit('colon');
    await patch(colon.id, 'Jméno').expect(200);
    expect(await activeIds('colon')).toEqual(['end_colon']);
    expect((await units('check:end_colon')).map((u) => u.context)).toEqual(['colon']);
    expect(await expectStatisticsAgree()).toBe(4);
  });

  it('applies automatic fixes on save, names them in X-Glossa-Fixups and records them in the change details', async () => {
    const ok = await unit('ok');
    const response = await patch(ok.id, '  Uložit vše\u200b\u0007 ').expect(200);
    expect(response.body.target).toEqual(['Uložit vše']);
    expect(response.headers['x-glossa-fixups']).toBe('end-whitespace, zero-width-space, control-chars');
    const [change]: Array<{ details: Record<string, unknown> }> = await db.query('SELECT details FROM changes WHERE unit_id = $1 ORDER BY id DESC LIMIT 1', [ok.id]);
    expect(change.details.fixups).toEqual(['end-whitespace', 'zero-width-space', 'control-chars']);
    expect((await unit('ok')).target).toEqual(['Uložit vše']);
    // Nothing to fix: no header.
    const clean = await patch(ok.id, 'Uložit!').expect(200);
    expect(clean.headers['x-glossa-fixups']).toBeUndefined();
    await patch(ok.id, 'Uložit').expect(200);
  });

  it('dismisses and restores a check (unit.check), which moves has_failing_check and the statistics', async () => {
    const same = await unit('same');
    const url = `/api/units/${same.id}/checks/same/`;
    await app.http().patch(url).send({ dismissed: true }).expect(401);
    // The project is protected: every signed-in user sees it, only its members translate (and dismiss).
    await app.http().get(`/api/units/${same.id}/checks/`).set(...authHeader(plainToken)).expect(200);
    await app.http().patch(url).set(...authHeader(plainToken)).send({ dismissed: true }).expect(403);
    expect((await app.http().patch(url).set(...admin).send({ dismissed: 'maybe' }).expect(400)).body).toEqual({ dismissed: ['Must be a valid boolean.'] });
    await app.http().patch(`/api/units/${same.id}/checks/end_stop/`).set(...admin).send({ dismissed: true }).expect(404);
    const before = await expectStatisticsAgree();
    expect((await app.http().patch(url).set(...admin).send({ dismissed: true }).expect(200)).body).toEqual({
      id: 'same',
      name: 'Unchanged translation',
      description: 'Source and translation are identical',
      dismissed: true,
    });
    expect((await unit('same')).has_failing_check).toBe(false);
    expect(await checksOf(same.id)).toMatchObject([{ id: 'same', dismissed: true }]);
    expect(await expectStatisticsAgree()).toBe(before - 1);
    expect((await units('dismissed_check:same')).map((u) => u.context)).toEqual(['same']);
    expect((await units('has:dismissed-check')).map((u) => u.context)).toEqual(['same']);
    expect(await units('check:same')).toEqual([]);
    await app.http().patch(url).set(...admin).send({ dismissed: false }).expect(200);
    expect(await expectStatisticsAgree()).toBe(before);
    await app.http().patch(url).set(...admin).send({ dismissed: true }).expect(200);
    // An edit that leaves the check failing keeps it dismissed.
    await patch(same.id, 'Open file', 10).expect(200);
    await patch(same.id, 'Open file', 20).expect(200);
    expect(await checksOf(same.id)).toMatchObject([{ id: 'same', dismissed: true }]);
    expect(await expectStatisticsAgree()).toBe(before - 1);
  });

  it('keeps a dismissed check dismissed when a re-import rewrites the unit, and checks what the import changed', async () => {
    // A new first key in the template moves every unit (each is rewritten by the scan); `same` still fails
    // and stays dismissed.
    await sandbox.commitUpstream({ 'sources/app.json': json({ first: 'First item.', ...TEMPLATE }) }, 'Add a string');
    await app.http().post('/api/components/chk/app/repository/').set(...admin).send({ operation: 'pull' }).expect(200);
    expect(await unit('first')).toMatchObject({ state: 0, has_failing_check: false });
    expect(await activeIds('first')).toEqual([]);
    expect(await checksOf((await unit('same')).id)).toMatchObject([{ id: 'same', dismissed: true }]);
    expect((await unit('same')).has_failing_check).toBe(false);
    expect(await activeIds('stop')).toEqual(['end_stop']);
    expect(await expectStatisticsAgree()).toBe(3);
  });

  it('an enforced check turns a translated save into needs editing', async () => {
    await app.http().patch('/api/components/chk/app/').set(...admin).send({ enforced_checks: ['end_exclamation'] }).expect(200);
    const ok = await unit('ok');
    const response = await patch(ok.id, 'Uložit!').expect(200);
    expect(response.body).toMatchObject({ target: ['Uložit!'], state: 10 });
    expect((await unit('ok')).state).toBe(10);
    expect(await activeIds('ok')).toEqual(['end_exclamation']);
    // An enforced check cannot be dismissed.
    expect((await app.http().patch(`/api/units/${ok.id}/checks/end_exclamation/`).set(...admin).send({ dismissed: true }).expect(400)).body).toEqual({
      dismissed: ['Enforced checks can not be dismissed.'],
    });
    // Passing checks keep the requested state.
    expect((await patch(ok.id, 'Uložit').expect(200)).body).toMatchObject({ state: 20 });
    await app.http().patch('/api/components/chk/app/').set(...admin).send({ enforced_checks: [] }).expect(200);
    expect(await expectStatisticsAgree()).toBe(3);
  });

  it('checks uploaded translations, with the automatic fixes applied', async () => {
    const response = await app
      .http()
      .post('/api/translations/chk/app/cs/file/')
      .set(...admin)
      .field('method', 'translate')
      .field('conflicts', 'replace-translated')
      .attach('file', Buffer.from(JSON.stringify({ ok: 'Uložit?\u200b', colon: 'Jméno:' })), 'app.json')
      .expect(200);
    expect(response.body).toMatchObject({ accepted: 2 });
    expect((await unit('ok')).target).toEqual(['Uložit?']);
    expect(await activeIds('ok')).toEqual(['end_question']);
    expect(await activeIds('colon')).toEqual([]);
    const [change]: Array<{ details: Record<string, unknown> }> = await db.query(
      "SELECT details FROM changes WHERE unit_id = $1 AND details ? 'fixups' ORDER BY id DESC LIMIT 1",
      [(await unit('ok')).id],
    );
    expect(change.details.fixups).toEqual(['zero-width-space']);
    expect(await expectStatisticsAgree()).toBe(3);
  });

  it('inconsistent: the same string translated differently in another component of the project fails in both', async () => {
    await createComponent('other', otherSandbox.upstream);
    expect((await unit('ok', 'other')).has_failing_check).toBe(true);
    const other = await unit('ok', 'other');
    expect((await checksOf(other.id)).map((c) => c.id)).toEqual(['inconsistent']);
    await patch((await unit('ok')).id, 'Uložit soubor').expect(200);
    expect(await activeIds('ok')).toEqual([]);
    expect((await checksOf(other.id)).map((c) => c.id)).toEqual([]);
    expect(await expectStatisticsAgree()).toBe(2);
  });

  it('safe-html: a save and an upload keep only safe HTML, and the fix is recorded', async () => {
    const [source] = (await app.http().get('/api/translations/chk/app/en/units/').query({ q: 'key:=colon' }).set(...admin).expect(200)).body.results;
    await app.http().patch(`/api/units/${source.id}/`).set(...admin).send({ extra_flags: 'safe-html' }).expect(200);
    const colon = await unit('colon');
    const saved = await patch(colon.id, 'Jméno <b onclick="steal()">x</b><script>steal()</script>:').expect(200);
    expect(saved.body.target).toEqual(['Jméno <b>x</b>:']);
    expect(saved.headers['x-glossa-fixups']).toBe('safe-html');
    const [change]: Array<{ details: Record<string, unknown> }> = await db.query('SELECT details FROM changes WHERE unit_id = $1 ORDER BY id DESC LIMIT 1', [colon.id]);
    expect(change.details.fixups).toEqual(['safe-html']);
    await app
      .http()
      .post('/api/translations/chk/app/cs/file/')
      .set(...admin)
      .field('method', 'translate')
      .field('conflicts', 'replace-translated')
      .attach('file', Buffer.from(JSON.stringify({ colon: 'Jméno <a href="javascript:steal()">x</a>:' })), 'app.json')
      .expect(200);
    expect((await unit('colon')).target).toEqual(['Jméno <a>x</a>:']);
    // What the fix leaves passes the check.
    expect(await activeIds('colon')).toEqual([]);
    await app.http().patch(`/api/units/${source.id}/`).set(...admin).send({ extra_flags: '' }).expect(200);
  });

  it('the checks of an invisible or unknown unit are 404', async () => {
    await app.http().get('/api/units/999999999/checks/').set(...admin).expect(404);
    await app.http().get('/api/units/abc/checks/').set(...admin).expect(404);
  });
});

// Source checks (checks-suggestions-search.md §1.6): stored on the source units, seen by `check:` searches
// on the source translation, counted in its statistics; the batch ones component-wide.
describe('source checks', () => {
  let app: TestApp;
  let db: DataSource;
  let sandbox: GitSandbox;
  const admin = authHeader(TEST_ADMIN_TOKEN);

  const SOURCES = {
    dots: 'Loading...',
    files: 'Delete file(s)',
    copy: 'Copy %s to %s',
    icu: 'Hello {name',
    stop: 'Hello world.',
    open: 'Open file',
    later: 'Translate me later',
    html: 'Click <b>here</b>',
  };
  const translations = (language: string, stop: string): Record<string, string> => ({
    dots: `${language} …`,
    files: `${language} soubory`,
    copy: `${language} %s %s`,
    icu: `${language} {name`,
    stop,
    open: `${language} otevřít`,
    html: `${language} <b onclick="steal()">sem</b>`,
  });

  const sourceUnits = async (q = ''): Promise<UnitBody[]> =>
    (await app.http().get('/api/translations/src/app/en/units/').query(q === '' ? {} : { q }).set(...admin).expect(200)).body.results;
  const sourceUnit = async (context: string): Promise<UnitBody> => (await sourceUnits(`key:=${context}`))[0];
  const checkIds = async (context: string): Promise<string[]> => {
    const response = await app.http().get(`/api/units/${(await sourceUnit(context)).id}/checks/`).set(...admin).expect(200);
    for (const check of response.body.results) expect(Object.keys(check)).toEqual(CHECK_KEYS);
    return response.body.results.filter((c: { dismissed: boolean }) => !c.dismissed).map((c: { id: string }) => c.id);
  };
  const matching = async (q: string): Promise<string[]> => (await sourceUnits(q)).map((u) => u.context).sort();

  /** The source translation's statistics agree with its units' has_failing_check and with has:check. */
  const expectSourceStatisticsAgree = async (): Promise<number> => {
    const all = await sourceUnits();
    const failing = all.filter((u) => u.has_failing_check);
    const translation = (await app.http().get('/api/translations/src/app/en/').set(...admin).expect(200)).body;
    expect(translation.failing_checks).toBe(failing.length);
    expect(translation.failing_checks_words).toBe(failing.reduce((sum, u) => sum + u.num_words, 0));
    const statistics = (await app.http().get('/api/translations/src/app/en/statistics/').set(...admin).expect(200)).body;
    expect(statistics.failing).toBe(failing.length);
    expect(await matching('has:check')).toEqual(failing.map((u) => u.context).sort());
    return failing.length;
  };

  beforeAll(async () => {
    app = await createTestApp();
    db = app.glossa.app.get(DataSource);
    await createProject(db, { name: 'Sources', slug: 'src', accessControl: ProjectAccess.Protected });
    sandbox = await createGitSandbox({
      'sources/app.json': json(SOURCES),
      'translations/cs/app.json': json(translations('cs', 'Ahoj světe')),
      'translations/de/app.json': json(translations('de', 'Hallo Welt')),
    });
    const created = await app
      .http()
      .post('/api/projects/src/components/')
      .set(...admin)
      .send({
        name: 'app',
        slug: 'app',
        repo: sandbox.upstream,
        filemask: 'translations/*/app.json',
        template: 'sources/app.json',
        file_format: 'json-nested',
        check_flags: 'c-format, icu-message-format, auto-safe-html',
      })
      .expect(201);
    await waitForTask(app, created.body.task_url, admin);
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.cleanup();
  });

  it('computes the per-string source checks on import; check: searches, has_failing_check and statistics agree', async () => {
    expect(await checkIds('dots')).toEqual(['ellipsis']);
    expect(await checkIds('files')).toEqual(['optional_plural']);
    expect(await checkIds('copy')).toEqual(['unnamed_format']);
    expect(await checkIds('icu')).toEqual(['icu_message_format_syntax']);
    expect(await checkIds('open')).toEqual([]);
    expect(await matching('check:ellipsis')).toEqual(['dots']);
    expect(await matching('check:optional_plural')).toEqual(['files']);
    expect(await matching('check:unnamed_format')).toEqual(['copy']);
    expect(await matching('check:icu_message_format_syntax')).toEqual(['icu']);
    expect((await sourceUnit('dots')).has_failing_check).toBe(true);
    expect((await sourceUnit('open')).has_failing_check).toBe(false);
    const detail = await app.http().get(`/api/units/${(await sourceUnit('dots')).id}/checks/`).set(...admin).expect(200);
    expect(detail.body.results).toEqual([
      { id: 'ellipsis', name: 'Ellipsis', description: 'The string uses three dots (...) instead of an ellipsis character (…)', dismissed: false },
    ]);
    // Imported translations are not fixed: unsafe HTML fails safe-html (auto-safe-html: the source is HTML).
    const html = (await app.http().get('/api/translations/src/app/cs/units/').query({ q: 'check:safe-html' }).set(...admin).expect(200)).body.results;
    expect(html.map((u: UnitBody) => u.context)).toEqual(['html']);
    expect(await expectSourceStatisticsAgree()).toBe(6);
  });

  it('multiple_failures: failing translations in two languages; re-evaluated when a translation is fixed or breaks again', async () => {
    expect(await checkIds('stop')).toEqual(['multiple_failures']);
    expect(await matching('check:multiple_failures')).toEqual(['html', 'stop']);
    const german = (await app.http().get('/api/translations/src/app/de/units/').query({ q: 'key:=stop' }).set(...admin).expect(200)).body.results[0];
    await app.http().patch(`/api/units/${german.id}/`).set(...admin).send({ target: ['Hallo Welt.'], state: 20 }).expect(200);
    expect(await checkIds('stop')).toEqual([]);
    await app.http().patch(`/api/units/${german.id}/`).set(...admin).send({ target: ['Hallo Welt'], state: 20 }).expect(200);
    expect(await checkIds('stop')).toEqual(['multiple_failures']);
    // Dismissing the German check leaves one language failing.
    await app.http().patch(`/api/units/${german.id}/checks/end_stop/`).set(...admin).send({ dismissed: true }).expect(200);
    expect(await checkIds('stop')).toEqual([]);
    await app.http().patch(`/api/units/${german.id}/checks/end_stop/`).set(...admin).send({ dismissed: false }).expect(200);
    expect(await checkIds('stop')).toEqual(['multiple_failures']);
    expect(await expectSourceStatisticsAgree()).toBe(6);
  });

  it("source-max-length and ignore flags follow the source unit's extra_flags", async () => {
    const open = await sourceUnit('open');
    // 9 characters against 85 % of 8 for an English source.
    await app.http().patch(`/api/units/${open.id}/`).set(...admin).send({ extra_flags: 'max-length:8' }).expect(200);
    // The source string's flags apply to its translations too: both are longer than 8 and fail max-length.
    expect(await checkIds('open')).toEqual(['source-max-length', 'multiple_failures']);
    const dots = await sourceUnit('dots');
    await app.http().patch(`/api/units/${dots.id}/`).set(...admin).send({ extra_flags: 'ignore-ellipsis' }).expect(200);
    expect(await checkIds('dots')).toEqual([]);
    expect(await expectSourceStatisticsAgree()).toBe(6);
    await app.http().patch(`/api/units/${open.id}/`).set(...admin).send({ extra_flags: '' }).expect(200);
    await app.http().patch(`/api/units/${dots.id}/`).set(...admin).send({ extra_flags: '' }).expect(200);
    expect(await checkIds('open')).toEqual([]);
    expect(await checkIds('dots')).toEqual(['ellipsis']);
    expect(await expectSourceStatisticsAgree()).toBe(6);
  });

  it('long_untranslated: a string added over 90 days ago, translated far less than the component, after a re-import', async () => {
    expect(await checkIds('later')).toEqual([]);
    await db.query(
      "UPDATE units SET timestamp = now() - interval '100 days' FROM translations t WHERE t.id = units.translation_id AND t.is_source AND t.component_id = (SELECT id FROM components WHERE slug = 'app' AND project_id = (SELECT id FROM projects WHERE slug = 'src'))",
    );
    await sandbox.commitUpstream({ 'sources/app.json': json({ ...SOURCES, extra: 'One more' }) }, 'Add a string');
    await app.http().post('/api/components/src/app/repository/').set(...admin).send({ operation: 'pull' }).expect(200);
    expect(await checkIds('later')).toEqual(['long_untranslated']);
    // The new string is recent, however untranslated.
    expect(await checkIds('extra')).toEqual([]);
    expect(await matching('check:long_untranslated')).toEqual(['later']);
    expect(await matching('has:check')).toEqual(['copy', 'dots', 'files', 'html', 'icu', 'later', 'stop']);
    expect(await expectSourceStatisticsAgree()).toBe(7);
  });

  it('rechecks a source string the template changes', async () => {
    await sandbox.commitUpstream({ 'sources/app.json': json({ ...SOURCES, open: 'Open file(s)...', extra: 'One more' }) }, 'Change a string');
    await app.http().post('/api/components/src/app/repository/').set(...admin).send({ operation: 'pull' }).expect(200);
    // The source's own checks; and its translations, now needing editing, miss the new full stop in both
    // languages (multiple_failures) and count as untranslated for a string added long ago (long_untranslated).
    const cs = (await app.http().get('/api/translations/src/app/cs/units/').query({ q: 'key:=open' }).set(...admin).expect(200)).body.results[0];
    expect(cs).toMatchObject({ state: 10, has_failing_check: true });
    expect(await checkIds('open')).toEqual(['ellipsis', 'optional_plural', 'multiple_failures', 'long_untranslated']);
    expect(await expectSourceStatisticsAgree()).toBe(8);
  });
});
