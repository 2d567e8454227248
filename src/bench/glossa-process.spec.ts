import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { nodeFlagsOf, startFlags } from './glossa-process';

describe('nodeFlagsOf', () => {
  it('returns the flags between node and dist/main.js', () => {
    expect(nodeFlagsOf('node --max-old-space-size=256  --liftoff-only dist/main.js')).toEqual(['--max-old-space-size=256', '--liftoff-only']);
    expect(nodeFlagsOf('node dist/main.js')).toEqual([]);
  });

  it('refuses a script the benchmark could not reproduce', () => {
    expect(() => nodeFlagsOf('node scripts/start.mjs')).toThrow('package.json "start"');
    expect(() => nodeFlagsOf('MALLOC_ARENA_MAX=2 node dist/main.js')).toThrow('package.json "start"');
    expect(() => nodeFlagsOf('node --inspect some.js dist/main.js')).toThrow('package.json "start"');
  });
});

describe('startFlags', () => {
  it('reads the flags of this package.json "start" (what the memory bench starts)', () => {
    // Jest runs from the repository root; under ESM test modules there is no __dirname to find it from.
    const file = path.join(process.cwd(), 'package.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { scripts: { start: string } };
    expect(startFlags({}, file)).toEqual(nodeFlagsOf(manifest.scripts.start));
    expect(startFlags({}, file)).toContain('--no-concurrent-recompilation');
  });

  it('takes BENCH_NODE_FLAGS instead when set', () => {
    expect(startFlags({ BENCH_NODE_FLAGS: ' --liftoff-only  --max-semi-space-size=2 ' })).toEqual(['--liftoff-only', '--max-semi-space-size=2']);
  });
});
