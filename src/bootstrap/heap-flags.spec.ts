import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EMBEDDED_HEAP_FLAGS, heapFlagsFor, POSTGRES_HEAP_FLAGS, withHeapFlags } from './heap-flags';

describe('heapFlagsFor', () => {
  it("gives PostgreSQL's limits when DATABASE_URL is set", () => {
    expect(heapFlagsFor({ DATABASE_URL: 'postgres://db/glossa' })).toEqual(POSTGRES_HEAP_FLAGS);
  });

  it("gives the embedded database's limits without DATABASE_URL, or with a blank one (app-config.ts ignores it)", () => {
    expect(heapFlagsFor({})).toEqual(EMBEDDED_HEAP_FLAGS);
    expect(heapFlagsFor({ DATABASE_URL: '  ' })).toEqual(EMBEDDED_HEAP_FLAGS);
  });

  it('differs in the young generation, and the embedded database has one V8 worker thread', () => {
    expect(POSTGRES_HEAP_FLAGS).toEqual(['--max-semi-space-size=16', '--max-old-space-size=256']);
    expect(EMBEDDED_HEAP_FLAGS).toEqual(['--max-semi-space-size=4', '--max-old-space-size=256', '--v8-pool-size=1']);
  });

  it("are the limits on package.json's start line (npm start's process starts with the embedded ones)", () => {
    // Jest runs from the repository root (jest.config.cjs).
    const manifest = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as { scripts: { start: string } };
    const words = manifest.scripts.start.split(/\s+/);
    expect(words.filter((word) => /^--(max-(semi|old)-space-size|v8-pool-size)=/.test(word))).toEqual([...EMBEDDED_HEAP_FLAGS]);
  });
});

describe('withHeapFlags', () => {
  it('replaces the limits and keeps every other flag in order', () => {
    expect(withHeapFlags(['--no-concurrent-recompilation', '--max-semi-space-size=4', '--max-old-space-size=256', '--enable-source-maps'], POSTGRES_HEAP_FLAGS)).toEqual([
      '--no-concurrent-recompilation',
      '--enable-source-maps',
      '--max-semi-space-size=16',
      '--max-old-space-size=256',
    ]);
  });

  it('replaces the other spellings V8 takes, a separate value included', () => {
    expect(withHeapFlags(['--max_semi_space_size=2', '--max-old-space-size', '512', '--inspect'], EMBEDDED_HEAP_FLAGS)).toEqual([
      '--inspect',
      ...EMBEDDED_HEAP_FLAGS,
    ]);
  });

  it('adds the limits to a command line without any', () => {
    expect(withHeapFlags([], POSTGRES_HEAP_FLAGS)).toEqual([...POSTGRES_HEAP_FLAGS]);
  });

  it('is not fooled by a longer flag name', () => {
    expect(withHeapFlags(['--max-old-space-size-extra=1'], [])).toEqual(['--max-old-space-size-extra=1']);
  });

  it("drops the embedded database's worker pool size for PostgreSQL, in either spelling", () => {
    expect(withHeapFlags(['--no-concurrent-recompilation', ...EMBEDDED_HEAP_FLAGS], POSTGRES_HEAP_FLAGS)).toEqual([
      '--no-concurrent-recompilation',
      ...POSTGRES_HEAP_FLAGS,
    ]);
    expect(withHeapFlags(['--v8-pool-size', '2', '--inspect'], POSTGRES_HEAP_FLAGS)).toEqual(['--inspect', ...POSTGRES_HEAP_FLAGS]);
  });
});
