// The whole-suite run of `npm test` runs the test files in groups: one Jest test file per group, which imports
// the group's files (issue 15 item 5; docs/performance.md "npm test in groups, session 24").
//
// Why: Jest gives every test file a module registry of its own and evaluates the file's whole import graph in
// it (NestJS, TypeORM, pg, the application: compiled again, file by file, as CommonJS in a vm context), and on
// the embedded database a worker whose heap has grown is replaced after the file. A small e2e file spent ~3
// CPU-seconds on that before its first test; twenty such files took 140 CPU-seconds as twenty files and 84 as
// two groups of ten. In a group the files share one registry, so the application's modules are evaluated once
// per group, while every file still builds its own app on its own database in its own beforeAll, as when it
// runs alone.
//
// What a group changes for a file: its top-level hooks (outside any describe) would apply to the group's other
// files too, so test files keep their hooks inside a describe (scripts/test-groups.spec.ts checks the
// rule); and module-level state is shared with the group's files, which is why every test file resets what it
// changes. `npm test -- <paths>` runs the named files one by one, as before.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Where Jest finds test files (jest.config.cjs testRegex), relative to the package root. */
const TEST_ROOTS = ['src', 'test', 'scripts'];
/** jest.config.cjs testRegex, as a test of a file name. */
const TEST_FILE = /\.(e2e-)?spec\.ts$/;
/**
 * About this many files per group: few enough that each group's module evaluation is paid by several files,
 * many enough that two workers stay busy until near the end (the last group to start sets the tail).
 */
const E2E_FILES_PER_GROUP = 6;
/**
 * Unit files are light to load, but several of them parse inputs of 50,000 units, and a worker's resident size
 * only grows within a group: with 25 files a group the heaviest reached 831 MB alone (hostile-input, xliff,
 * parser-pool and ts together), beside the other worker's first e2e group. With 16 the heaviest is 460 MB, for
 * about 2 s more CPU over all unit groups (docs/performance.md "npm test, session 25").
 */
const UNIT_FILES_PER_GROUP = 16;

/** Every test file under the test roots, as paths relative to `root` with forward slashes, sorted. */
export function findTestFiles(root) {
  const found = [];
  const walk = (relative) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(child);
      } else if (entry.isFile() && TEST_FILE.test(entry.name)) found.push(child);
    }
  };
  for (const top of TEST_ROOTS) if (fs.existsSync(path.join(root, top))) walk(top);
  return found.sort();
}

/**
 * Splits `files` into `count` groups of about equal weight: heaviest first, each into the group that weighs
 * least so far (longest-processing-time scheduling). The weight is the file's size, which follows the number
 * of tests it holds; a fresh clone has no timings to go by. Groups come out heaviest first, and keep their
 * files in name order.
 */
export function planGroups(files, count, weightOf) {
  const groups = Array.from({ length: Math.max(1, Math.min(count, files.length)) }, () => ({ files: [], weight: 0 }));
  const byWeight = files.map((file) => ({ file, weight: weightOf(file) })).sort((a, b) => b.weight - a.weight || a.file.localeCompare(b.file));
  for (const { file, weight } of byWeight) {
    const lightest = groups.reduce((best, group) => (group.weight < best.weight ? group : best));
    lightest.files.push(file);
    lightest.weight += weight;
  }
  return groups
    .filter((group) => group.files.length > 0)
    .sort((a, b) => b.weight - a.weight)
    .map((group) => group.files.sort());
}

/**
 * Writes one Jest test file per group into a new temporary directory and returns it (Jest's `--roots`). The
 * unit and e2e files are grouped apart: a unit group stays light, so the worker that runs it is not replaced
 * for its memory. The caller removes the directory.
 */
export function writeTestGroups(root, { exclude = [] } = {}) {
  const files = findTestFiles(root).filter((file) => !exclude.includes(file));
  const weightOf = (file) => fs.statSync(path.join(root, file)).size;
  const e2e = files.filter((file) => file.endsWith('.e2e-spec.ts'));
  const unit = files.filter((file) => !file.endsWith('.e2e-spec.ts'));
  const groups = [
    ...planGroups(e2e, Math.ceil(e2e.length / E2E_FILES_PER_GROUP), weightOf).map((members, i) => ({ name: `e2e-${String(i + 1).padStart(2, '0')}.e2e-spec.ts`, members })),
    ...planGroups(unit, Math.ceil(unit.length / UNIT_FILES_PER_GROUP), weightOf).map((members, i) => ({ name: `unit-${String(i + 1).padStart(2, '0')}.spec.ts`, members })),
  ];
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'glossa-test-groups-'));
  for (const { name, members } of groups) {
    const imports = members.map((file) => `import ${JSON.stringify(path.join(root, file).replace(/\.ts$/, ''))};`);
    fs.writeFileSync(path.join(directory, name), `// Written by scripts/test-groups.mjs for one npm test run: ${members.length} test files.\n${imports.join('\n')}\n`);
  }
  return { directory, groups, fileCount: files.length };
}
