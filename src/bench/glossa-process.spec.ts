import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EMBEDDED_HEAP_FLAGS, POSTGRES_HEAP_FLAGS } from '../bootstrap/heap-flags';
import { nodeFlagsOf, startFlags } from './glossa-process';

describe('nodeFlagsOf', () => {
  it('returns the flags between node and dist/start.js', () => {
    expect(nodeFlagsOf('node --max-old-space-size=256  --liftoff-only dist/start.js')).toEqual(['--max-old-space-size=256', '--liftoff-only']);
    expect(nodeFlagsOf('node dist/start.js')).toEqual([]);
  });

  it('refuses a script the benchmark could not reproduce', () => {
    expect(() => nodeFlagsOf('node scripts/start.mjs')).toThrow('package.json "start"');
    expect(() => nodeFlagsOf('node dist/main.js')).toThrow('package.json "start"');
    expect(() => nodeFlagsOf('MALLOC_ARENA_MAX=2 node dist/start.js')).toThrow('package.json "start"');
    expect(() => nodeFlagsOf('node --inspect some.js dist/start.js')).toThrow('package.json "start"');
  });
});

describe('startFlags', () => {
  // Jest runs from the repository root; under ESM test modules there is no __dirname to find it from.
  const file = path.join(process.cwd(), 'package.json');
  const startLine = (JSON.parse(readFileSync(file, 'utf8')) as { scripts: { start: string } }).scripts.start;

  it('reads the flags of this package.json "start" for the embedded database (what the memory bench starts)', () => {
    expect(startFlags({}, {}, file)).toEqual(nodeFlagsOf(startLine));
    expect(startFlags({ DATABASE_URL: '' }, {}, file)).toEqual(nodeFlagsOf(startLine));
    expect(startFlags({}, {}, file)).toContain('--no-concurrent-recompilation');
    expect(startFlags({}, {}, file).slice(-EMBEDDED_HEAP_FLAGS.length)).toEqual([...EMBEDDED_HEAP_FLAGS]);
  });

  it("gives a server on PostgreSQL PostgreSQL's heap limits, as src/start.ts does", () => {
    const flags = startFlags({ DATABASE_URL: 'postgres://db/glossa' }, {}, file);
    expect(flags).toContain('--no-concurrent-recompilation');
    expect(flags.filter((flag) => flag.startsWith('--max-'))).toEqual([...POSTGRES_HEAP_FLAGS]);
    expect(flags.filter((flag) => flag.startsWith('--v8-pool-size'))).toEqual([]);
  });

  it('takes BENCH_NODE_FLAGS instead when set', () => {
    expect(startFlags({ DATABASE_URL: 'postgres://db/glossa' }, { BENCH_NODE_FLAGS: ' --liftoff-only  --max-semi-space-size=2 ' })).toEqual(['--liftoff-only', '--max-semi-space-size=2']);
  });
});
