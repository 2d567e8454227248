import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SyntheticRepo {
  /** Path of the repository, usable as a component's `repo` when local repositories are allowed. */
  path: string;
  filemask: string;
  template: string;
  cleanup(): Promise<void>;
}

/**
 * Words of the source strings, one per string in turn: each occurs in 1/100 of the strings, so a search for
 * one (`source:"lantern"`) matches a realistic share of units rather than all or none. No word contains
 * another, so a word's matches are exactly its strings.
 */
export const SYNTHETIC_WORDS = [
  'lantern', 'harbor', 'meadow', 'violin', 'glacier', 'pepper', 'saddle', 'thunder', 'walnut', 'quiver',
  'anchor', 'blossom', 'cobalt', 'dagger', 'ember', 'falcon', 'garnet', 'hazel', 'igloo', 'jasmine',
  'kettle', 'lobster', 'marble', 'nectar', 'orchid', 'pebble', 'quartz', 'raven', 'saffron', 'tulip',
  'umbrella', 'velvet', 'whistle', 'yogurt', 'zephyr', 'acorn', 'bramble', 'candle', 'dolphin', 'egret',
  'fjord', 'ginger', 'hammock', 'indigo', 'juniper', 'kayak', 'lilac', 'mango', 'nutmeg', 'oyster',
  'parsley', 'quokka', 'ribbon', 'sparrow', 'thimble', 'uplink', 'vortex', 'wombat', 'xylem', 'yarrow',
  'zucchini', 'almond', 'biscuit', 'canyon', 'dewdrop', 'elbow', 'fossil', 'gazebo', 'hornet', 'iris',
  'jigsaw', 'koala', 'ladder', 'mitten', 'noodle', 'obelisk', 'puffin', 'quill', 'rhubarb', 'stencil',
  'trumpet', 'unicorn', 'vulture', 'waffle', 'yacht', 'zipper', 'avocado', 'bucket', 'cricket', 'donkey',
  'eclipse', 'feather', 'goblet', 'helmet', 'icicle', 'jelly', 'kiwi', 'lemur', 'magnet', 'nozzle',
];

/**
 * A json-nested file of `strings` strings, three levels deep (`s12.g3.k12345`), as real i18n bundles nest
 * them. Every fifth string is missing from the translations, so they have untranslated units too. Every tenth
 * source string ends with a full stop its translations lack, so those translated units fail Weblate's
 * `end_stop` check (issue 13: `has:check` matches a realistic share, and the import computes real failures).
 */
function bundle(strings: number, language: string, source: boolean): string {
  const root: Record<string, Record<string, Record<string, string>>> = {};
  for (let i = 0; i < strings; i += 1) {
    if (!source && i % 5 === 4) continue;
    const section = (root[`s${Math.floor(i / 1000)}`] ??= {});
    const group = (section[`g${Math.floor(i / 50) % 20}`] ??= {});
    const word = SYNTHETIC_WORDS[i % SYNTHETIC_WORDS.length];
    group[`k${i}`] = source ? `String number ${i} of the benchmark, with a ${word}${i % 10 === 3 ? '.' : ''}` : `[${language}] string ${i} translated`;
  }
  return `${JSON.stringify(root, null, 2)}\n`;
}

/** A git repository with a template and one file per language (the layout of the e2e sandboxes). */
export async function createSyntheticRepo(name: string, strings: number, languages: readonly string[]): Promise<SyntheticRepo> {
  const root = await mkdtemp(path.join(os.tmpdir(), `glossa-bench-${name}-`));
  const template = 'sources/app.json';
  await mkdir(path.join(root, 'sources'), { recursive: true });
  await writeFile(path.join(root, template), bundle(strings, languages[0], true));
  for (const [index, language] of languages.entries()) {
    await mkdir(path.join(root, 'translations', language), { recursive: true });
    await writeFile(path.join(root, 'translations', language, 'app.json'), bundle(strings, language, index === 0));
  }
  const identity = { GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@localhost', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@localhost' };
  const git = (args: string[]) => run('git', args, { cwd: root, env: { ...process.env, ...identity } });
  await git(['init', '--quiet', '--initial-branch=main']);
  await git(['add', '--all']);
  await git(['commit', '--quiet', '--message', 'Synthetic benchmark data']);
  return { path: root, filemask: 'translations/*/app.json', template, cleanup: () => rm(root, { recursive: true, force: true }) };
}
