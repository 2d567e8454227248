import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { PluralDeclaration } from '../formats/store';

const run = promisify(execFile);

// The gettext PO repository of the benchmark's PO scenario (issue 11): a POT (`new_base`) and one PO file per
// translated language, each with `strings` entries in the shapes real catalogs have. Of the entries:
// every 10th is plural (`msgid_plural`, `#, c-format`), every 7th carries a developer comment (`#.`) and a
// source text wrapped over two lines, every 3rd a `msgctxt`, the others a plain `#:` reference. In the
// translations every 5th entry is untranslated and every 13th fuzzy (with a `#|` previous msgid).

export interface PoRepo {
  path: string;
  filemask: string;
  newBase: string;
  /** PO files by language code. */
  files: Map<string, { filename: string; content: Buffer }>;
  cleanup(): Promise<void>;
}

/** Plural-Forms of the languages the benchmark uses (gettext's own rules; the file's header is what Glossa reads). */
const PLURALS: Record<string, PluralDeclaration> = {
  cs: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' },
  pl: { number: 3, formula: '(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)' },
  fr: { number: 2, formula: '(n > 1)' },
  ja: { number: 1, formula: '0' },
  ko: { number: 1, formula: '0' },
};

export function poPlural(language: string): PluralDeclaration {
  return PLURALS[language] ?? { number: 2, formula: '(n != 1)' };
}

function header(language: string | null): string {
  const plural = language ? poPlural(language) : { number: 2, formula: 'INTEGER' };
  return [
    'msgid ""',
    'msgstr ""',
    '"Project-Id-Version: bench 1.0\\n"',
    '"Report-Msgid-Bugs-To: bench@example.com\\n"',
    '"POT-Creation-Date: 2026-11-01 12:00+0000\\n"',
    `"PO-Revision-Date: ${language ? '2026-11-02 12:00+0000' : 'YEAR-MO-DA HO:MI+ZONE'}\\n"`,
    `"Last-Translator: ${language ? 'Bench Translator <translator@example.com>' : 'FULL NAME <EMAIL@ADDRESS>'}\\n"`,
    `"Language-Team: ${language ?? 'LANGUAGE'} <LL@li.org>\\n"`,
    `"Language: ${language ?? ''}\\n"`,
    '"MIME-Version: 1.0\\n"',
    `"Content-Type: text/plain; charset=${language ? 'UTF-8' : 'CHARSET'}\\n"`,
    '"Content-Transfer-Encoding: 8bit\\n"',
    `"Plural-Forms: nplurals=${plural.number}; plural=${plural.formula};\\n"`,
    '',
  ].join('\n');
}

/** The context and msgid of entry `i` (shared by the POT, the PO files and the benchmark's edits). */
export function poEntryKey(i: number): { context: string; source: string[] } {
  if (i % 10 === 0) return { context: '', source: [`%d file number ${i}`, `%d files number ${i}`] };
  if (i % 7 === 0) return { context: '', source: [`A long source text number ${i} that was wrapped by the extractor over two lines because it is long.`] };
  return { context: i % 3 === 0 ? `ctx${i % 100}` : '', source: [`Source string ${i}`] };
}

/** One PO (language) or POT (null) file of `strings` entries. */
export function poFile(strings: number, language: string | null): Buffer {
  const parts = [header(language)];
  const forms = language ? poPlural(language).number : 2;
  for (let i = 0; i < strings; i += 1) {
    const untranslated = language === null || i % 5 === 4;
    const fuzzy = !untranslated && i % 13 === 0;
    const t = (text: string) => (untranslated ? '' : `[${language}] ${text}`);
    const fuzzyLines = fuzzy ? `#, fuzzy\n#| msgid "Old source ${i}"\n` : '';
    if (i % 10 === 0) {
      const msgstr = Array.from({ length: forms }, (_, form) => `msgstr[${form}] "${t(`%d soubor ${i} (${form})`)}"\n`).join('');
      parts.push(
        `#: src/files/module${i % 97}.c:${i}\n#, c-format${fuzzy ? ', fuzzy' : ''}\n${fuzzy ? `#| msgid "Old source ${i}"\n` : ''}` +
          `msgid "%d file number ${i}"\nmsgid_plural "%d files number ${i}"\n${msgstr}`,
      );
    } else if (i % 7 === 0) {
      const target = untranslated ? 'msgstr ""\n' : `msgstr ""\n"[${language}] Dlouhý zdrojový text číslo ${i}, který extraktor zalomil na dva "\n"řádky, protože je dlouhý."\n`;
      parts.push(
        `#. A developer comment for entry ${i}\n#: src/long.c:${i}\n${fuzzyLines}msgid ""\n"A long source text number ${i} that was wrapped by the extractor over "\n` +
          `"two lines because it is long."\n${target}`,
      );
    } else {
      const context = i % 3 === 0 ? `msgctxt "ctx${i % 100}"\n` : '';
      parts.push(`#: src/main.c:${i}\n${fuzzyLines}${context}msgid "Source string ${i}"\nmsgstr "${t(`Přeložený řetězec ${i}`)}"\n`);
    }
  }
  return Buffer.from(parts.join('\n'), 'utf8');
}

/** A git repository `po/app.pot` + `po/<language>.po` for every language but the source (the first). */
export async function createPoRepo(strings: number, languages: readonly string[]): Promise<PoRepo> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'glossa-bench-po-'));
  await mkdir(path.join(root, 'po'), { recursive: true });
  await writeFile(path.join(root, 'po', 'app.pot'), poFile(strings, null));
  const files = new Map<string, { filename: string; content: Buffer }>();
  for (const language of languages.slice(1)) {
    const filename = `po/${language}.po`;
    const content = poFile(strings, language);
    files.set(language, { filename, content });
    await writeFile(path.join(root, filename), content);
  }
  const identity = { GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@localhost', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@localhost' };
  const git = (args: string[]) => run('git', args, { cwd: root, env: { ...process.env, ...identity } });
  await git(['init', '--quiet', '--initial-branch=main']);
  await git(['add', '--all']);
  await git(['commit', '--quiet', '--message', 'Synthetic PO benchmark data']);
  return { path: root, filemask: 'po/*.po', newBase: 'po/app.pot', files, cleanup: () => rm(root, { recursive: true, force: true }) };
}
