import { unzipSync } from 'fflate';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { EXPORTERS } from '../../src/formats/exporter.registry';
import { getFileFormat, usesTemplate } from '../../src/formats/format.registry';
import { createGitSandbox, type GitSandbox } from '../../src/vcs/testing/git-sandbox';
import { authHeader } from './contract';
import { createProject } from './factories';
import { waitForTask } from './tasks';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from './test-app';

// The table of test/e2e/formats-*.e2e-spec.ts (issue 11 "Done means": one e2e row per file format through
// the API). Each row is a git repository of fixture files and the bytes expected back: create the component
// from it, check units and statistics, translate one string and add one, commit and push, clone and compare
// the file byte for byte, add a language, upload a file, download every exporter that accepts the component.
// A new format is one more row: its files, the units expected in `cs`, the edits and the expected bytes.

export interface UnitExpectation {
  context: string;
  source: string[];
  target: string[];
  state: number;
}

export interface FormatRow {
  /** Weblate's file_format id. */
  format: string;
  /** Repository content (path → text, or bytes for encodings other than UTF-8). */
  files: Record<string, string | Buffer>;
  filemask: string;
  template?: string;
  newBase?: string;
  /** Units of the `cs` translation after the import, in position order. */
  units: UnitExpectation[];
  /** The `cs` unit (found by context, and by source when given) translated through the API and its new target. */
  translate: { context: string; source?: string; target: string[] };
  /** A string added through the API: monolingual `{key, value}` to the source language, bilingual `{source, target}` to `addTo`. */
  add?: Record<string, unknown>;
  /** The translation `add` goes to (the source language `en` unless given). */
  addTo?: string;
  /** Files of the clone after the commit, byte for byte (a Buffer is compared as bytes, dates included). */
  committed: Record<string, string | Buffer>;
  /** The file of the language added through the API (`fr`). */
  newLanguage: { filename: string; content: string | RegExp | Buffer };
  /** The format's own validator run on every committed file and the new language's file (issue 11 "Done means"). */
  validate?: 'xmllint' | 'msgfmt';
  /** An upload the format cannot parse (a NUL and a brace unless given). */
  badUpload?: string;
  /** Extension of the original file download (the filemask's unless given). */
  extension?: string;
  /** An upload into `cs` (method translate) and Weblate's counters. */
  upload: { content: string | Buffer; result: { not_found: number; skipped: number; accepted: number; total: number } };
}

/** One describe per row; each spec file passes its rows. */
export function describeFormatRows(rows: FormatRow[]): void {
  describe.each(rows)('format $format through the API', (row) => {
    let app: TestApp;
    let db: DataSource;
    let sandbox: GitSandbox;
    const admin = authHeader(TEST_ADMIN_TOKEN);
    const slug = `fmt-${row.format}`;
    const component = `/api/components/${slug}/app`;
    const translation = (code: string) => `/api/translations/${slug}/app/${code}`;
    const operate = async (operation: string) =>
      expect((await app.http().post(`${component}/repository/`).set(...admin).send({ operation }).expect(200)).body).toEqual({ result: true });

    beforeAll(async () => {
      app = await createTestApp();
      db = app.glossa.app.get(DataSource);
      sandbox = await createGitSandbox(row.files);
      await createProject(db, { name: `Formats ${row.format}`, slug });
      const created = await app
        .http()
        .post(`/api/projects/${slug}/components/`)
        .set(...admin)
        .send({
          name: 'App',
          slug: 'app',
          repo: sandbox.upstream,
          push: sandbox.upstream,
          filemask: row.filemask,
          template: row.template ?? '',
          new_base: row.newBase ?? '',
          file_format: row.format,
          manage_units: true,
          edit_template: true,
        })
        .expect(201);
      expect((await waitForTask(app, created.body.task_url, admin)).result).toMatchObject({ result: true });
    }, 60_000);

    afterAll(async () => {
      await app?.close();
      await sandbox?.cleanup();
    });

    it('imports the units and their statistics', async () => {
      const units = await app.http().get(`${translation('cs')}/units/?page_size=100`).expect(200);
      expect(units.body.results.map(({ context, source, target, state }: UnitExpectation) => ({ context, source, target, state }))).toEqual(row.units);
      const stats = await app.http().get(`${translation('cs')}/`).expect(200);
      expect(stats.body).toMatchObject({
        total: row.units.length,
        translated: row.units.filter((unit) => unit.state >= 20).length,
        fuzzy: row.units.filter((unit) => unit.state === 10).length,
      });
    });

    it('translates and adds a string, commits, and the clone holds the expected bytes', async () => {
      const id = await unitIdByKey(db, 'cs', row.translate.context, row.translate.source);
      await app.http().patch(`/api/units/${id}/`).set(...admin).send({ target: row.translate.target, state: 20 }).expect(200);
      if (row.add) await app.http().post(`${translation(row.addTo ?? 'en')}/units/`).set(...admin).send(row.add).expect(200);
      await operate('commit');
      await operate('push');
      await sandbox.git(sandbox.root, ['clone', '--quiet', sandbox.upstream, sandbox.clonePath]);
      for (const [name, content] of Object.entries(row.committed)) {
        const bytes = await readFile(path.join(sandbox.clonePath, name));
        // Bytes compared as hex so a failure shows where an encoding went wrong.
        if (Buffer.isBuffer(content)) expect(bytes.toString('hex')).toBe(content.toString('hex'));
        else expect(withoutDates(bytes.toString('utf8'))).toBe(content);
        if (row.validate) await expectValid(row.validate, bytes);
      }
    });

    it('adds a language from new_base or the format’s new file', async () => {
      await app.http().post(`${component}/translations/`).set(...admin).send({ language_code: 'fr' }).expect(201);
      await operate('push');
      if (existsSync(sandbox.clonePath)) await sandbox.git(sandbox.clonePath, ['pull', '--quiet']);
      else await sandbox.git(sandbox.root, ['clone', '--quiet', sandbox.upstream, sandbox.clonePath]);
      const created = await readFile(path.join(sandbox.clonePath, row.newLanguage.filename));
      // A RegExp for formats whose new file is a long fixed boilerplate (RESX).
      if (row.newLanguage.content instanceof RegExp) expect(created.toString('utf8')).toMatch(row.newLanguage.content);
      else if (Buffer.isBuffer(row.newLanguage.content)) expect(created.toString('hex')).toBe(row.newLanguage.content.toString('hex'));
      else expect(created.toString('utf8')).toBe(row.newLanguage.content);
      if (row.validate) await expectValid(row.validate, created);
    });

    it('uploads a file with Weblate’s counters', async () => {
      const response = await app.http().post(`${translation('cs')}/file/`).set(...admin).attach('file', Buffer.from(row.upload.content), 'upload').expect(200);
      expect(response.body).toMatchObject({ ...row.upload.result, result: row.upload.result.accepted > 0 });
      // An unparseable upload is refused and changes nothing.
      const before = await app.http().get(`${translation('cs')}/`).expect(200);
      await app.http().post(`${translation('cs')}/file/`).set(...admin).attach('file', Buffer.from(row.badUpload ?? '\u0000not a file{'), 'upload').expect(400);
      expect((await app.http().get(`${translation('cs')}/`).expect(200)).body.translated).toBe(before.body.translated);
    });

    it('downloads every exporter that accepts the component, alone and zipped', async () => {
      const format = getFileFormat(row.format)!;
      const monolingual = usesTemplate(format, row.template ?? '');
      for (const exporter of EXPORTERS.values()) {
        if (!exporter.accepts(row.format, monolingual)) continue;
        const single = await app.http().get(`${translation('cs')}/file/?format=${exporter.id}`).buffer(true);
        // The exporter's id in the failure message tells which conversion broke.
        expect({ exporter: exporter.id, status: single.status }).toEqual({ exporter: exporter.id, status: 200 });
        expect(single.headers['content-type']).toContain(exporter.contentType);
        expect(single.headers['content-disposition']).toContain(`${slug}-app-cs.${exporter.extension}`);
        const zip = await app.http().get(`${component}/file/?format=zip:${exporter.id}`).buffer(true).parse(binary as never).expect(200);
        expect(Object.keys(unzipSync(new Uint8Array(zip.body as Buffer)))).toContain(`${slug}-app-cs.${exporter.extension}`);
      }
      await app.http().get(`${translation('cs')}/file/?format=no-such-exporter`).expect(404);
      const original = await app.http().get(`${translation('cs')}/file/`).expect(200);
      expect(original.headers['content-disposition']).toContain(`${slug}-app-cs${row.extension ?? path.extname(row.filemask)}`);
    });
  });
}

/**
 * The format's own validator accepts `content` (exits 0): `xmllint --noout` for XML formats, `msgfmt -c` for
 * PO (both installed in CI, .ci). A missing tool fails: the row asked for it.
 */
async function expectValid(tool: 'xmllint' | 'msgfmt', content: Buffer): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'glossa-validate-'));
  try {
    const file = path.join(dir, tool === 'msgfmt' ? 'file.po' : 'file.xml');
    await writeFile(file, content);
    const args = tool === 'msgfmt' ? ['-c', '-o', '/dev/null', file] : ['--noout', file];
    const result = spawnSync(tool, args, { encoding: 'utf8' });
    // msgfmt's warnings (header fields Weblate does not write either, e.g. Project-Id-Version) do not fail it.
    expect({ tool, status: result.status, errors: result.status === 0 ? '' : result.stderr }).toEqual({ tool, status: 0, errors: '' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The revision date a commit writes into PO headers is the clock's: expected bytes hold `DATE` there. */
function withoutDates(text: string): string {
  return text.replace(/(PO-Revision-Date: )[^\\"\n]*/g, '$1DATE');
}

/** A unit of `language` by context (and source, for bilingual files where contexts repeat). */
async function unitIdByKey(db: DataSource, language: string, context: string, source?: string): Promise<string> {
  const [row]: Array<{ id: string }> = await db.query(
    `SELECT u.id FROM units u JOIN translations t ON t.id = u.translation_id JOIN languages l ON l.id = t.language_id
      WHERE l.code = $1 AND u.context = $2 AND ($3::text IS NULL OR u.source = $3) ORDER BY u.position LIMIT 1`,
    [language, context, source ?? null],
  );
  if (!row) throw new Error(`no ${language} unit ${context} ${source ?? ''}`);
  return row.id;
}

/** supertest parser keeping a ZIP body as bytes. */
function binary(response: NodeJS.ReadableStream, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => done(null, Buffer.concat(chunks)));
}
