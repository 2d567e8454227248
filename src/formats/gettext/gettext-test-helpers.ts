// Test helpers: fixture loading and gettext's own validator (`msgfmt -c`) run on written files, as the
// brief asks (skipped when gettext is not installed, except in CI where a missing msgfmt fails).

import { execFileSync, spawnSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { StoreWriteContext } from '../store';

export function fixture(name: string): Buffer {
  return readFileSync(join(process.cwd(), 'src/formats/gettext/fixtures', name));
}

const gettextInstalled = spawnSync('msgfmt', ['--version']).status === 0;

function withTempFile<T>(content: Buffer, extension: string, use: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-po-'));
  try {
    const path = join(dir, `file.${extension}`);
    writeFileSync(path, content);
    return use(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function requireGettext(): boolean {
  if (gettextInstalled) return true;
  if (process.env.CI === 'true') throw new Error('msgfmt (gettext) is required in CI');
  return false;
}

/** Fails the test with msgfmt's message when `msgfmt -c` rejects the file. */
export function expectMsgfmtAccepts(content: Buffer): void {
  if (!requireGettext()) return;
  withTempFile(content, 'po', (path) => {
    const result = spawnSync('msgfmt', ['-c', '-o', '/dev/null', path], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`msgfmt -c rejected the file:\n${result.stderr}\n${content.toString()}`);
  });
}

/** `msgunfmt` of an MO file, or null when gettext is not installed. */
export function msgunfmt(content: Buffer): string | null {
  if (!requireGettext()) return null;
  return withTempFile(content, 'mo', (path) => execFileSync('msgunfmt', [path], { encoding: 'utf8' }));
}

export const CS_CONTEXT: StoreWriteContext = {
  languageCode: 'cs',
  plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' },
  lastTranslator: 'Weblate Admin <admin@example.com>',
  revisionDate: new Date('2024-05-05T12:00:00Z'),
  generator: 'Glossa 0.1.0',
};
