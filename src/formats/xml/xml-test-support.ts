// Test support for the XML formats: validates written files with `xmllint --noout` (issue 11 "Done
// means": written files pass the format's own validator) and reads them with translate-toolkit as a second
// reader. Missing xmllint fails only in CI; missing translate-toolkit always skips.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function available(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

export const HAS_XMLLINT = available('xmllint', ['--version']);
export const TOOLKIT_PYTHON = ['/usr/bin/python3', 'python3'].find((python) =>
  available(python, ['-c', 'import translate.storage']),
);

/** Throws with xmllint's message when `content` is not well-formed XML. */
export function expectWellFormedXml(content: Buffer): void {
  if (!HAS_XMLLINT) {
    if (process.env.CI === 'true') throw new Error('xmllint is not installed');
    return;
  }
  const directory = mkdtempSync(join(tmpdir(), 'glossa-xml-'));
  try {
    const file = join(directory, 'file.xml');
    writeFileSync(file, content);
    const result = spawnSync('xmllint', ['--noout', file], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`xmllint rejected the file:\n${result.stderr}\n${content.toString()}`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Runs a python snippet with translate-toolkit on `content` (available as `path`); null without the toolkit. */
export function runToolkit(content: Buffer, script: string): string | null {
  if (!TOOLKIT_PYTHON) return null;
  const directory = mkdtempSync(join(tmpdir(), 'glossa-ttk-'));
  try {
    const file = join(directory, 'file.xml');
    writeFileSync(file, content);
    return execFileSync(TOOLKIT_PYTHON, ['-c', `import json, sys\npath = ${JSON.stringify(file)}\n${script}`], {
      encoding: 'utf8',
    });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
