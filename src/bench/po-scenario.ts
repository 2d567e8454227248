import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { PO_FORMAT } from '../formats/gettext/po.format';
import type { StoreWriteContext } from '../formats/store';
import { BenchApi } from './bench-api';
import { childrenOf, type GlossaProcess } from './glossa-process';
import { poEntryKey, poPlural, type PoRepo } from './po-repo';
import { mb, median, type TargetCheck } from './report';

// The gettext PO scenario (issue 11): a `po` component of `strings` entries × the bench languages imported
// through the API, then the write-back of one edit to one 50,000-entry file, timed two ways:
// * through Glossa: `PATCH /api/units/<id>/` then `POST /api/translations/<p>/<c>/cs/repository/`
//   `{"operation": "commit"}`, which reads the file from the working copy, patches it in the parse worker
//   (FileFormat.write), writes it, runs `git commit` and clears the unit's pending flag;
// * in this process: PO_FORMAT.write on the same file with one changed unit (the pure format work).

export interface PoReport {
  strings: number;
  languages: string[];
  /** PO files (every language but the source) and the size of one. */
  files: number;
  fileBytes: number;
  import: {
    seconds: number;
    /** Units of every translation, the source translation included (as the json-nested import counts them). */
    units: number;
    unitsPerSecond: number;
    /** Units read from PO files (the source translation's units come from the same files). */
    fileUnits: number;
    fileUnitsPerSecond: number;
    peakRssBytes: number | null;
    /** CPU seconds Glossa (all its threads, and its git processes) used during the import; PostgreSQL's are not counted. */
    glossaCpuSeconds: number | null;
  };
  /** One edit committed through the API: the commit request, and the PATCH before it (ms). */
  commit: { samples: number[]; medianMs: number; minMs: number; maxMs: number; patchMedianMs: number; glossaCpuMsPerCommit: number | null };
  /** PO_FORMAT.parse and PO_FORMAT.write (one changed unit) on one file, in this process (ms). */
  inProcess: { parseMs: number; writeSamples: number[]; writeMedianMs: number; writeMinMs: number; writeCpuMedianMs: number };
  /**
   * What git alone costs for such a commit on this machine: the git processes GitRepository.commit runs
   * (`add`, `commit --quiet`) on the benchmark's own copy of the repository, one edit each.
   */
  gitOnly: { samples: number[]; medianMs: number };
  loadAverage: number[];
}

// 15 rounds: the median of 7 moved by 100 ms and more between runs of one build on the shared machine.
const EDITS = 15;
const run = promisify(execFile);

/**
 * CPU seconds (user + system, all threads) a process and its live descendants have used, from /proc (Linux);
 * null elsewhere. On a loaded machine wall time mostly measures waiting for a core, CPU time what the work
 * itself costs. The descendants count because git runs in Glossa's git helper process (src/vcs/git-spawner.ts):
 * its git processes' CPU lands in the helper's cutime, not in the server's until the helper exits.
 */
async function cpuSeconds(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime (fields 14 to 17 of proc_pid_stat(5): the process's threads and the child
    // processes it waited for, i.e. git) in clock ticks; Linux's USER_HZ is 100.
    let seconds = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
    for (const child of childrenOf(pid)) seconds += (await cpuSeconds(child)) ?? 0;
    return seconds;
  } catch {
    return null;
  }
}

function selfCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function timed<T>(work: () => T): [T, number] {
  const started = process.hrtime.bigint();
  const result = work();
  return [result, Number(process.hrtime.bigint() - started) / 1e6];
}

async function timedAsync<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = process.hrtime.bigint();
  const result = await work();
  return [result, Number(process.hrtime.bigint() - started) / 1e6];
}

/** Pure format work on the `cs` file: one parse, then EDITS writes of one changed unit each (after a warm-up). */
function measureInProcess(content: Buffer, strings: number): PoReport['inProcess'] & { edited: Buffer[] } {
  PO_FORMAT.parse(content); // warm-up (JIT)
  const [parsed, parseMs] = timed(() => PO_FORMAT.parse(content));
  if (parsed.units.length !== strings) throw new Error(`PO_FORMAT.parse read ${parsed.units.length} units, expected ${strings}`);
  const context: StoreWriteContext = {
    languageCode: 'cs',
    plural: poPlural('cs'),
    lastTranslator: 'Bench Editor <editor@example.com>',
    revisionDate: new Date(),
    generator: 'Glossa bench',
  };
  const edit = (n: number) => {
    const i = Math.floor(strings * 0.8) + 3 * n + 1; // past the middle of the file, never a plural entry (i % 10 !== 0)
    const key = poEntryKey(i % 10 === 0 ? i + 1 : i);
    return { update: [{ ...key, target: [`bench edit ${n}`], state: 'translated' as const }] };
  };
  const first = PO_FORMAT.write(content, edit(0), context); // warm-up
  // The edit must replace the unit's msgstr, not append a new entry (an unmatched key would be appended).
  if (!first.toString('utf8').includes('"bench edit 0"') || PO_FORMAT.parse(first).units.length !== strings) throw new Error('PO_FORMAT.write did not write the edit in place');
  const writeSamples: number[] = [];
  const cpuSamples: number[] = [];
  const edited = [first];
  for (let n = 1; n <= EDITS; n += 1) {
    const cpuBefore = selfCpuMs();
    const [written, elapsed] = timed(() => PO_FORMAT.write(content, edit(n), context));
    cpuSamples.push(selfCpuMs() - cpuBefore);
    writeSamples.push(elapsed);
    edited.push(written);
  }
  return { parseMs, writeSamples, writeMedianMs: median(writeSamples), writeMinMs: Math.min(...writeSamples), writeCpuMedianMs: median(cpuSamples), edited };
}

/** `git add` and `git commit --quiet` of one edited PO file, as GitRepository.commit runs them (HEAD is then read from the ref file). */
async function measureGitOnly(repo: PoRepo, edited: Buffer[]): Promise<PoReport['gitOnly']> {
  const cs = repo.files.get('cs')!;
  const env = { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@localhost', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@localhost' };
  const git = (args: string[]) => run('git', args, { cwd: repo.path, env });
  const samples: number[] = [];
  for (const [n, content] of edited.entries()) {
    await writeFile(path.join(repo.path, cs.filename), content);
    const [, elapsed] = await timedAsync(async () => {
      await git(['add', '--force', '--', cs.filename]);
      await git(['commit', '--quiet', '--no-verify', '--no-gpg-sign', `--message=bench edit ${n}`]);
    });
    if (n > 0) samples.push(elapsed);
  }
  return { samples, medianMs: median(samples) };
}

interface UnitRow {
  id: number;
  source: string[];
  target: string[];
}

export async function runPoScenario(api: BenchApi, glossa: GlossaProcess, project: string, repo: PoRepo, strings: number, languages: readonly string[], settle: () => Promise<void>): Promise<PoReport> {
  const slug = 'po';
  console.log(`Importing the PO component (${strings} strings, ${repo.files.size} PO files + the source translation) through the API…`);
  glossa.rss.reset();
  const cpuBeforeImport = await cpuSeconds(glossa.pid);
  const [, importMs] = await timedAsync(() =>
    api.importComponent(project, slug, { path: repo.path, filemask: repo.filemask, template: '', newBase: repo.newBase, fileFormat: 'po' }, 3600),
  );
  const peakRssBytes = glossa.rss.peak();
  const cpuAfterImport = await cpuSeconds(glossa.pid);
  const glossaCpuSeconds = cpuBeforeImport !== null && cpuAfterImport !== null ? cpuAfterImport - cpuBeforeImport : null;
  const translations = await api.json<{ results: Array<{ language_code: string; total: number }> }>('GET', `/api/components/${project}/${slug}/translations/?page_size=100`);
  if (translations.results.length !== languages.length) throw new Error(`The PO import created ${translations.results.length} translations, expected ${languages.length}`);
  for (const translation of translations.results) {
    if (translation.total !== strings) throw new Error(`${translation.language_code}: ${translation.total} units, expected ${strings}`);
  }
  const seconds = importMs / 1000;
  const units = strings * translations.results.length;
  const fileUnits = strings * repo.files.size;
  console.log(
    `  ${units} units (${fileUnits} in PO files) in ${seconds.toFixed(1)} s = ${(units / seconds).toFixed(0)} units/s ` +
      `(${(fileUnits / seconds).toFixed(0)} PO-file units/s), peak RSS ${mb(peakRssBytes)}`,
  );
  await settle();

  // One edit, one commit, EDITS times: units past the middle of the cs file, non-plural.
  const page = Math.floor((strings * 0.8) / 100);
  const listed = await api.json<{ results: UnitRow[] }>('GET', `/api/translations/${project}/${slug}/cs/units/?page=${page}&page_size=100`);
  const editable = listed.results.filter((unit) => unit.source.length === 1);
  if (editable.length < EDITS + 1) throw new Error('Not enough non-plural units on the chosen page');
  const base = `/api/translations/${project}/${slug}/cs`;
  const commitSamples: number[] = [];
  const patchSamples: number[] = [];
  let commitCpuSeconds: number | null = 0;
  for (let n = 0; n <= EDITS; n += 1) {
    const unit = editable[n];
    const [patched, patchMs] = await timedAsync(() => api.request('PATCH', `/api/units/${unit.id}/`, { target: [`bench commit ${n}`], state: 20 }));
    if (patched.status !== 200) throw new Error(`PATCH answered ${patched.status}: ${patched.bytes.toString().slice(0, 300)}`);
    const cpuBefore = await cpuSeconds(glossa.pid);
    const [committed, commitMs] = await timedAsync(() => api.json<{ result: boolean }>('POST', `${base}/repository/`, { operation: 'commit' }));
    const cpuAfter = await cpuSeconds(glossa.pid);
    if (!committed.result) throw new Error(`commit answered ${JSON.stringify(committed)}`);
    // The first round warms the parse worker and the prepared statements up; it is not counted.
    if (n > 0) {
      commitCpuSeconds = commitCpuSeconds !== null && cpuBefore !== null && cpuAfter !== null ? commitCpuSeconds + (cpuAfter - cpuBefore) : null;
      commitSamples.push(commitMs);
      patchSamples.push(patchMs);
    }
  }
  const status = await api.json<{ needs_commit: boolean }>('GET', `${base}/repository/`);
  if (status.needs_commit) throw new Error('The translation still needs a commit after the commits');
  const cs = repo.files.get('cs');
  if (!cs) throw new Error('The PO scenario needs cs among the languages');
  const { edited, ...inProcess } = measureInProcess(cs.content, strings);
  const gitOnly = await measureGitOnly(repo, edited);
  return {
    strings,
    languages: [...languages],
    files: repo.files.size,
    fileBytes: cs.content.length,
    import: { seconds, units, unitsPerSecond: units / seconds, fileUnits, fileUnitsPerSecond: fileUnits / seconds, peakRssBytes, glossaCpuSeconds },
    commit: {
      samples: commitSamples,
      medianMs: median(commitSamples),
      minMs: Math.min(...commitSamples),
      maxMs: Math.max(...commitSamples),
      patchMedianMs: median(patchSamples),
      glossaCpuMsPerCommit: commitCpuSeconds !== null ? (commitCpuSeconds * 1000) / commitSamples.length : null,
    },
    inProcess,
    gitOnly,
    loadAverage: os.loadavg(),
  };
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;

export function poTargets(report: PoReport): TargetCheck[] {
  return [
    {
      target: 'PO import ≥ 10,000 units/s',
      measured:
        `${report.import.unitsPerSecond.toFixed(0)} units/s (${report.import.units} units in ${report.import.seconds.toFixed(1)} s; ` +
        `${report.import.fileUnitsPerSecond.toFixed(0)} units/s counting PO-file units only), peak RSS ${mb(report.import.peakRssBytes)}`,
      met: report.import.unitsPerSecond >= 10_000,
    },
    {
      target: `one edit written back to a ${report.strings}-unit PO file < 200 ms (commit request)`,
      measured: `median ${ms(report.commit.medianMs)} (min ${ms(report.commit.minMs)}, max ${ms(report.commit.maxMs)}, ${report.commit.samples.length} commits)`,
      met: report.commit.medianMs < 200,
    },
    {
      target: `FileFormat.write of one edit on a ${report.strings}-unit PO file < 200 ms (in process)`,
      measured: `median ${ms(report.inProcess.writeMedianMs)} (min ${ms(report.inProcess.writeMinMs)}); parse ${ms(report.inProcess.parseMs)}`,
      met: report.inProcess.writeMedianMs < 200,
    },
  ];
}

export function formatPoReport(report: PoReport): string {
  const [one, five, fifteen] = report.loadAverage.map((value) => value.toFixed(2));
  return [
    `PO component: ${report.strings} strings × ${report.languages.length} languages (${report.files} PO files of ${(report.fileBytes / 1048576).toFixed(1)} MB + the source translation)`,
    `  import: ${report.import.units} units in ${report.import.seconds.toFixed(1)} s = ${report.import.unitsPerSecond.toFixed(0)} units/s ` +
      `(${report.import.fileUnitsPerSecond.toFixed(0)} PO-file units/s), peak RSS ${mb(report.import.peakRssBytes)}, ` +
      `Glossa CPU ${report.import.glossaCpuSeconds?.toFixed(1) ?? '?'} s (${report.import.glossaCpuSeconds ? (report.import.units / report.import.glossaCpuSeconds).toFixed(0) : '?'} units per Glossa CPU second)`,
    `  one edit committed (POST …/cs/repository/ commit): median ${ms(report.commit.medianMs)}, min ${ms(report.commit.minMs)}, max ${ms(report.commit.maxMs)} ` +
      `over ${report.commit.samples.length} commits, Glossa CPU ${report.commit.glossaCpuMsPerCommit?.toFixed(0) ?? '?'} ms per commit ` +
      `(the PATCH before each: median ${ms(report.commit.patchMedianMs)})`,
    `  in process: PO_FORMAT.parse ${ms(report.inProcess.parseMs)}, PO_FORMAT.write of one edit median ${ms(report.inProcess.writeMedianMs)} ` +
      `(min ${ms(report.inProcess.writeMinMs)}, CPU time median ${ms(report.inProcess.writeCpuMedianMs)}, ${report.inProcess.writeSamples.length} writes)`,
    `  git alone (add, commit --quiet of one edited file in a copy of the repository): median ${ms(report.gitOnly.medianMs)} over ${report.gitOnly.samples.length} commits`,
    `  load average after the scenario: ${one} ${five} ${fifteen}`,
  ].join('\n');
}
