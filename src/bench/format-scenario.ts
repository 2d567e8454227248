import * as os from 'node:os';
import { FILE_FORMATS } from '../formats/format.registry';
import { CORPUS_FORMAT_IDS, formatCorpus, type FormatCorpusCase } from './format-corpus';
import { median } from './report';

// The `formats` part of `npm run bench` (issue 11): every format with a large synthetic file
// (format-corpus.ts), parsed and written with one edit in this process, no database and no server. It is
// where format speed is measured; the format specs assert only what the files contain (no timing in tests).

export interface FormatFigures {
  id: string;
  units: number;
  bytes: number;
  /** Median wall time of `runs` parses after one warm-up parse (ms). */
  parseMs: number;
  parseCpuMs: number;
  /** Median wall time of `runs` one-edit writes after one warm-up write (ms). */
  writeMs: number;
  writeCpuMs: number;
  /** Units read per second of parse wall time. */
  unitsPerSecond: number;
}

export interface FormatsReport {
  unitsPerFile: number;
  runs: number;
  formats: FormatFigures[];
  /** Registered format ids the corpus has no builder for (not measured). */
  notMeasured: string[];
  loadAverage: number[];
}

interface Sample {
  wallMs: number;
  cpuMs: number;
}

function sample(work: () => void): Sample {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  work();
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

function medians(samples: readonly Sample[]): Sample {
  return { wallMs: median(samples.map((s) => s.wallMs)), cpuMs: median(samples.map((s) => s.cpuMs)) };
}

/** A figure is only worth printing if the work was right: every unit read, the edit written in place. */
function verify(testCase: FormatCorpusCase, written: Buffer): void {
  const format = FILE_FORMATS.get(testCase.id)!;
  const options = { language: testCase.language, limits: { maxUnits: Number.MAX_SAFE_INTEGER, maxStringLength: Number.MAX_SAFE_INTEGER } };
  const after = format.parse(written, options).units;
  if (after.length !== testCase.units) throw new Error(`${testCase.id}: the edited file has ${after.length} units, expected ${testCase.units}`);
  const edit = testCase.changes.update[0];
  const unit = after.find((u) => u.context === testCase.expected.context && (edit.source.length === 0 || u.source.join('\n') === edit.source.join('\n')));
  if (!unit || JSON.stringify(unit.target) !== JSON.stringify(testCase.expected.target)) {
    throw new Error(`${testCase.id}: the edit of ${testCase.expected.context} was not written in place (found ${JSON.stringify(unit?.target)})`);
  }
}

function measureFormat(testCase: FormatCorpusCase, runs: number): FormatFigures {
  const format = FILE_FORMATS.get(testCase.id);
  if (!format) throw new Error(`format-corpus.ts builds "${testCase.id}", which is not a registered format`);
  // The import path passes the file limits; the corpus is sized by the bench, so they are set past it.
  const options = { language: testCase.language, limits: { maxUnits: Number.MAX_SAFE_INTEGER, maxStringLength: Number.MAX_SAFE_INTEGER } };
  const parsed = format.parse(testCase.content, options); // warm-up, and the unit count check
  if (parsed.units.length !== testCase.units) throw new Error(`${testCase.id}: parsed ${parsed.units.length} units, expected ${testCase.units}`);
  const parses: Sample[] = [];
  for (let run = 0; run < runs; run += 1) parses.push(sample(() => format.parse(testCase.content, options)));

  let written = format.write(testCase.content, testCase.changes, testCase.context); // warm-up
  verify(testCase, written);
  const writes: Sample[] = [];
  for (let run = 0; run < runs; run += 1) writes.push(sample(() => (written = format.write(testCase.content, testCase.changes, testCase.context))));
  const parse = medians(parses);
  const write = medians(writes);
  return {
    id: testCase.id,
    units: testCase.units,
    bytes: testCase.content.length,
    parseMs: parse.wallMs,
    parseCpuMs: parse.cpuMs,
    writeMs: write.wallMs,
    writeCpuMs: write.cpuMs,
    unitsPerSecond: testCase.units / (parse.wallMs / 1000),
  };
}

export function runFormatsScenario(unitsPerFile: number, runs: number, only: readonly string[]): FormatsReport {
  const formats: FormatFigures[] = [];
  for (const testCase of formatCorpus(unitsPerFile, only)) {
    const figures = measureFormat(testCase, runs);
    console.log(`  ${figures.id}: parse ${figures.parseMs.toFixed(1)} ms, one-edit write ${figures.writeMs.toFixed(1)} ms, ${figures.unitsPerSecond.toFixed(0)} units/s`);
    formats.push(figures);
  }
  const notMeasured = [...FILE_FORMATS.keys()].filter((id) => !CORPUS_FORMAT_IDS.includes(id));
  return { unitsPerFile, runs, formats, notMeasured, loadAverage: os.loadavg() };
}

export function formatFormatsReport(report: FormatsReport): string {
  const header = ['format', 'units', 'MB', 'parse ms', 'parse CPU', 'write ms', 'write CPU', 'units/s'];
  const rows = report.formats.map((f) => [
    f.id,
    String(f.units),
    (f.bytes / 1048576).toFixed(1),
    f.parseMs.toFixed(1),
    f.parseCpuMs.toFixed(1),
    f.writeMs.toFixed(1),
    f.writeCpuMs.toFixed(1),
    f.unitsPerSecond.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [
    `Medians of ${report.runs} runs after one warm-up each (write = FileFormat.write with one changed unit at ~80 % of the file)`,
    line(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
    `Not measured (no synthetic file yet): ${report.notMeasured.join(', ') || 'none'}`,
    `Load average after the part: ${report.loadAverage.map((value) => value.toFixed(2)).join(' ')}`,
  ].join('\n');
}
