// Test-only helpers: run the validators Debian ships on files the ts/resx/stringsdict writers produce
// (FORMATS-BRIEF "Validators"). A missing tool skips the check locally and fails in CI (CI=true), where
// .ci installs xmllint; python3's plistlib (Weblate's own stringsdict reader, formats.md §3.5) is an optional
// second reader and is skipped when absent, even in CI.

import { spawnSync } from 'node:child_process';

function toolMissing(error: Error | undefined): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** Throws unless `xmllint --noout` accepts `content` (skipped when xmllint is missing, outside CI). */
export function expectXmllintValid(content: Buffer | string): void {
  const result = spawnSync('xmllint', ['--noout', '-'], { input: content });
  if (toolMissing(result.error)) {
    if (process.env.CI === 'true') throw new Error('xmllint is not installed');
    return;
  }
  if (result.status !== 0) {
    throw new Error(`xmllint rejected the file:\n${result.stderr.toString()}\n${content.toString()}`);
  }
}

/** The plist as Python's plistlib reads it, as JSON; undefined when python3 is missing. */
export function readWithPlistlib(content: Buffer | string): unknown {
  const script = 'import json,plistlib,sys\nprint(json.dumps(plistlib.loads(sys.stdin.buffer.read()), ensure_ascii=False))';
  const result = spawnSync('python3', ['-c', script], { input: content });
  if (toolMissing(result.error)) return undefined;
  if (result.status !== 0) throw new Error(`plistlib rejected the file:\n${result.stderr.toString()}`);
  return JSON.parse(result.stdout.toString('utf8'));
}

/** A unit as translate-toolkit 3.8.x's own store reads it (the library Weblate reads these files with). */
export interface ToolkitUnit {
  id: string;
  context: string;
  source: string[];
  target: string[];
  notes: string;
  fuzzy: boolean;
  obsolete: boolean;
}

const TOOLKIT_SCRIPT = `
import json, sys
from translate.storage import ts2, resx, stringsdict
kind, language = sys.argv[1], sys.argv[2]
data = sys.stdin.buffer.read()
if kind == 'ts':
    store = ts2.tsfile(data)
elif kind == 'resx':
    store = resx.RESXFile(data)
else:
    store = stringsdict.StringsDictFile()
    store.settargetlanguage(language)
    store.parse(data)
def forms(value):
    if value is None:
        return ['']
    return [str(item) for item in value.strings] if hasattr(value, 'strings') else [str(value)]
out = []
for unit in store.units:
    out.append({'id': unit.getid() or '', 'context': unit.getcontext() or '', 'source': forms(unit.source),
                'target': forms(unit.target), 'notes': unit.getnotes() or '', 'fuzzy': bool(unit.isfuzzy()),
                'obsolete': bool(unit.isobsolete())})
print(json.dumps(out, ensure_ascii=False))
`;

/**
 * The units translate-toolkit reads from `content` (Debian's python3 with the translate-toolkit package);
 * undefined when it is not installed (skipped even in CI, FORMATS-BRIEF "Validators").
 */
export function readWithTranslateToolkit(kind: 'ts' | 'resx' | 'stringsdict', content: Buffer | string, language = 'en'): ToolkitUnit[] | undefined {
  for (const python of ['/usr/bin/python3', 'python3']) {
    const result = spawnSync(python, ['-c', TOOLKIT_SCRIPT, kind, language], { input: content });
    if (toolMissing(result.error)) continue;
    if (result.status !== 0) {
      if (result.stderr.toString().includes("No module named 'translate'")) continue;
      throw new Error(`translate-toolkit rejected the file:\n${result.stderr.toString()}`);
    }
    return JSON.parse(result.stdout.toString('utf8')) as ToolkitUnit[];
  }
  return undefined;
}
