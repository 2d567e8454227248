import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
// A plain-JS script of `npm test`: no type declarations, so its exports are typed here.
import * as groupsModule from './test-groups.mjs';

const { findTestFiles, planGroups, writeTestGroups } = groupsModule as unknown as {
  findTestFiles(root: string): string[];
  planGroups(files: string[], count: number, weightOf: (file: string) => number): string[][];
  writeTestGroups(root: string, options?: { exclude?: string[] }): { directory: string; groups: { name: string; members: string[] }[]; fileCount: number };
};

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('npm test groups (scripts/test-groups.mjs)', () => {
  it('splits files into groups of about equal weight, heaviest group first, each file once', () => {
    const weights: Record<string, number> = { a: 9, b: 7, c: 6, d: 5, e: 4, f: 2, g: 1 };
    const groups = planGroups(Object.keys(weights), 3, (file) => weights[file]);
    // a, b, c open the three groups; each next file goes to the lightest: d to c's, e to b's, f and g to a's.
    expect(groups).toEqual([
      ['a', 'f', 'g'],
      ['b', 'e'],
      ['c', 'd'],
    ]);
  });

  it('makes no more groups than files, and none empty', () => {
    expect(planGroups(['x', 'y'], 5, () => 1)).toEqual([['x'], ['y']]);
    expect(planGroups(['x'], 0, () => 1)).toEqual([['x']]);
    expect(planGroups([], 3, () => 1)).toEqual([]);
  });

  it('finds every test file Jest would, and writes groups that import each of them once, but the excluded', () => {
    const files = findTestFiles(ROOT);
    expect(files).toContain('scripts/test-groups.spec.ts');
    expect(files).toContain('test/e2e/permissions.e2e-spec.ts');
    expect(files.every((file) => /\.(e2e-)?spec\.ts$/.test(file) && !file.includes('node_modules'))).toBe(true);

    const excluded = 'test/e2e/embedded-start.e2e-spec.ts';
    const { directory, groups, fileCount } = writeTestGroups(ROOT, { exclude: [excluded] });
    try {
      expect(fileCount).toBe(files.length - 1);
      const written = fs.readdirSync(directory).sort();
      expect(written).toEqual(groups.map((group) => group.name).sort());
      const imported = written.flatMap((name) => [...fs.readFileSync(path.join(directory, name), 'utf8').matchAll(/^import "(.+)";$/gm)].map((match) => match[1]));
      expect(imported.sort()).toEqual(files.filter((file) => file !== excluded).map((file) => path.join(ROOT, file).replace(/\.ts$/, '')).sort());
      // Unit and e2e files never share a group, and every group's name is one Jest runs (jest.config.cjs testRegex).
      for (const group of groups) {
        expect(group.name).toMatch(/\.(e2e-)?spec\.ts$/);
        expect(new Set(group.members.map((file) => file.endsWith('.e2e-spec.ts'))).size).toBe(1);
        expect(group.members.every((file) => file.endsWith('.e2e-spec.ts'))).toBe(group.name.endsWith('.e2e-spec.ts'));
      }
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });

  it('no test file has a hook outside a describe, which would run for every file of its group', () => {
    const offenders = findTestFiles(ROOT).filter((file) => /^(beforeAll|afterAll|beforeEach|afterEach)\(/m.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
