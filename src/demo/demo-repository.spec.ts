import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitRepository } from '../vcs/git.repository';
import { matchFilemask } from '../vcs/filemask';
import { DEMO_BRANCH, buildDemoRepository, demoSourceDirectory } from './demo-repository';

/** Leaf paths of a JSON document in json-nested context notation (`a.b`, `list[0]`). */
function leafContexts(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => leafContexts(item, `${prefix}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => leafContexts(item, prefix ? `${prefix}.${key}` : key));
  }
  return [prefix];
}

const readJson = async (file: string): Promise<unknown> => JSON.parse(await readFile(file, 'utf8'));

describe('buildDemoRepository', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'glossa-demo-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('creates a committed repository with the shipped files, by the demo author', async () => {
    const target = path.join(root, 'data', 'demo');
    expect(await buildDemoRepository(target)).toBe(target);

    const repo = new GitRepository(target, DEMO_BRANCH, { allowLocal: true });
    expect(await repo.listFiles()).toEqual([
      'README.md',
      'sources/app.json',
      'translations/cs/app.json',
      'translations/de/app.json',
    ]);
    expect(await repo.lastCommit()).toMatchObject({
      author: 'Glossa Demo <demo@glossa.invalid>',
      commit: 'Glossa Demo <demo@glossa.invalid>',
      summary: 'Add Glossa demo translations',
      authordate: '2024-01-01T00:00:00+00:00',
    });
    expect(await repo.needsCommit()).toBe(false);
    expect(matchFilemask(await repo.listFiles(), 'translations/*/app.json', '^[^.]+$').map((m) => m.languageCode))
      .toEqual(['cs', 'de']);
    // Nothing half-built is left beside the target.
    expect(await readdir(path.join(root, 'data'))).toEqual(['demo']);
  });

  it('is idempotent and deterministic', async () => {
    const first = path.join(root, 'one');
    await buildDemoRepository(first);
    const repo = new GitRepository(first, DEMO_BRANCH, { allowLocal: true });
    const revision = await repo.headRevision();
    await writeFile(path.join(first, 'sources', 'app.json'), '{}\n');

    expect(await buildDemoRepository(first)).toBe(first);
    expect(await repo.headRevision()).toBe(revision);
    expect(await readFile(path.join(first, 'sources', 'app.json'), 'utf8')).toBe('{}\n');

    const second = path.join(root, 'two');
    await mkdir(second);
    await buildDemoRepository(second);
    expect(await new GitRepository(second, DEMO_BRANCH, { allowLocal: true }).headRevision()).toBe(revision);
  });

  it('refuses to take over a directory that holds other files', async () => {
    const target = path.join(root, 'occupied');
    await mkdir(target);
    await writeFile(path.join(target, 'precious.txt'), 'keep me');
    await expect(buildDemoRepository(target)).rejects.toThrow('exists and is not a git repository');
    expect(await readFile(path.join(target, 'precious.txt'), 'utf8')).toBe('keep me');
  });
});

describe('shipped demo files', () => {
  const source = demoSourceDirectory();

  it('has a json-nested English template with nested objects, an array, a placeholder and non-ASCII text', async () => {
    const template = await readJson(path.join(source, 'sources', 'app.json'));
    const contexts = leafContexts(template);
    expect(contexts.length).toBeGreaterThanOrEqual(10);
    expect(contexts.length).toBeLessThanOrEqual(14);
    expect(contexts.some((c) => c.includes('.'))).toBe(true);
    expect(contexts.some((c) => /\[\d+\]$/.test(c))).toBe(true);
    const text = await readFile(path.join(source, 'sources', 'app.json'), 'utf8');
    expect(text).toMatch(/\{name\}/);
    expect(text).toMatch(/[^\x00-\x7f]/);
  });

  it('has Czech fully and German about half translated, and no English translation file', async () => {
    const templateKeys = leafContexts(await readJson(path.join(source, 'sources', 'app.json')));
    const cs = leafContexts(await readJson(path.join(source, 'translations', 'cs', 'app.json')));
    const de = leafContexts(await readJson(path.join(source, 'translations', 'de', 'app.json')));
    expect(cs).toEqual(templateKeys);
    expect(de.every((key) => templateKeys.includes(key))).toBe(true);
    expect(de.length / templateKeys.length).toBeGreaterThanOrEqual(0.4);
    expect(de.length / templateKeys.length).toBeLessThanOrEqual(0.6);
    await expect(readFile(path.join(source, 'translations', 'en', 'app.json'))).rejects.toThrow();
  });

  it('is written the way Weblate writes json-nested (4-space indent, trailing newline)', async () => {
    for (const file of ['sources/app.json', 'translations/cs/app.json', 'translations/de/app.json']) {
      const text = await readFile(path.join(source, file), 'utf8');
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 4)}\n`);
    }
  });
});
