import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

// GNU msgmerge, as Weblate runs it for a `source` upload of a PO component (formats.md §3.1 and §5; Weblate's
// PoFormat.update_bilingual): `msgmerge --previous --output-file <po> <po> <pot>` (Weblate adds `--backup=none`,
// which gettext 0.21 refuses without `--update` and which does nothing with `--output-file`). It brings a
// translation file in line with the new template: the template's entries in its order, with their comments,
// references and flags; translations kept for unchanged strings; a changed string gets the translation of
// the most similar old one, marked `#, fuzzy` with the old msgid as `#| msgid`; strings the template dropped
// are kept as obsolete `#~` entries. Weblate treats any message on stderr, other than the "internationalized
// messages should not contain" warning, as a failure; so does this.
//
// The files are written to a private temporary directory and msgmerge runs without a shell, with a scrubbed
// environment and a time limit (fuzzy matching grows with strings × strings). Debian package: gettext (the
// Dockerfile installs it; without it, source uploads use the simpler update of source-upload.service.ts).

export const MSGMERGE_TIMEOUT_MS = 5 * 60_000;
const MAX_OUTPUT = 16 * 1024 * 1024;

/** msgmerge failed or said something Weblate counts as an error. */
export class MsgmergeError extends Error {
  override readonly name = 'MsgmergeError';
}

interface Run {
  code: number | null;
  stderr: string;
  timedOut: boolean;
}

function run(args: readonly string[], cwd: string, timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    // C.UTF-8: messages in English (Weblate matches on them) and no locale-dependent conversion.
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' };
    execFile('msgmerge', [...args], { cwd, env, timeout: timeoutMs, maxBuffer: MAX_OUTPUT, encoding: 'utf8' }, (error, _stdout, stderr) => {
      if (!error) return resolve({ code: 0, stderr, timedOut: false });
      const failure = error as NodeJS.ErrnoException & { code?: number | string; killed?: boolean };
      resolve({ code: typeof failure.code === 'number' ? failure.code : null, stderr: stderr || failure.message, timedOut: failure.killed === true });
    });
  });
}

let available: Promise<boolean> | null = null;

/** Whether a msgmerge binary can be run (checked once per process). */
export function msgmergeAvailable(): Promise<boolean> {
  available ??= new Promise((resolve) => {
    execFile('msgmerge', ['--version'], { timeout: 10_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (error) => resolve(!error));
  });
  return available;
}

/** The stderr lines Weblate ignores (update_bilingual): the rest make the merge fail. */
export function msgmergeErrors(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.includes('warning: internationalized messages should not contain the') && !line.includes('. done.'));
}

/** `po` merged with the template `pot`, as msgmerge writes it. */
export async function msgmerge(po: Buffer, pot: Buffer, timeoutMs = MSGMERGE_TIMEOUT_MS): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'glossa-msgmerge-'));
  try {
    await writeFile(path.join(dir, 'def.po'), po);
    await writeFile(path.join(dir, 'ref.pot'), pot);
    const result = await run(['--previous', '--quiet', '--output-file', 'out.po', 'def.po', 'ref.pot'], dir, timeoutMs);
    const errors = msgmergeErrors(result.stderr);
    if (result.timedOut) throw new MsgmergeError(`msgmerge took longer than ${Math.round(timeoutMs / 1000)} s`);
    if (result.code !== 0 || errors.length > 0) throw new MsgmergeError(`msgmerge failed: ${errors.join(' ') || `exit code ${result.code}`}`);
    return await readFile(path.join(dir, 'out.po'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
