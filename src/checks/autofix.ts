import type { Flags } from './flags';
import { safeHtmlApplies, sanitizeHtml } from './safe-html';

// Weblate's default automatic fixes (checks-suggestions-search.md §4), applied to every translation written
// through the API (edits and uploads) before checks run; never to texts read from the repository. Each fix
// runs once, in Weblate's order, and the ids of those that changed something are reported.

export interface FixResult {
  target: string[];
  /** Ids of the fixes that changed the text, in order (Weblate shows their names to the translator). */
  applied: string[];
}

/** Fix ids and the names Weblate shows for them. */
export const FIX_NAMES: Readonly<Record<string, string>> = {
  'end-whitespace': 'Trailing and leading whitespace',
  'end-ellipsis': 'Trailing ellipsis',
  'zero-width-space': 'Zero-width space',
  'control-chars': 'Control characters',
  'safe-html': 'Unsafe HTML',
};

// U+0000–U+0008, U+000B, U+000C, U+000E–U+001F, U+FFFE, U+FFFF; tab, LF and CR stay ([latest] §4.1).
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function endWhitespace(source: string, target: string, flags: Flags): string {
  const normalized = source.replace(/\r\n?/g, '\n');
  const stripped = target.trim();
  // A target that is only whitespace is left as is.
  if (stripped === '') return target;
  const head = flags.has('ignore-begin-space') ? target.slice(0, target.length - target.trimStart().length) : /^\s*/.exec(normalized)![0];
  const tail = flags.has('ignore-end-space') ? target.slice(target.trimEnd().length) : /\s*$/.exec(normalized)![0];
  return head + stripped + tail;
}

const FIXES: ReadonlyArray<[string, (source: string, target: string, flags: Flags, language: string) => string]> = [
  ['end-whitespace', endWhitespace],
  ['end-ellipsis', (source, target) => (source.endsWith('…') && target.endsWith('...') ? `${target.slice(0, -3)}…` : target)],
  ['zero-width-space', (source, target, _flags, language) => (language !== 'km' && !source.includes('\u200b') ? target.replace(/\u200b/g, '') : target)],
  ['control-chars', (_source, target) => target.replace(CONTROL_CHARS, '')],
  // The target keeps only the HTML the source allows (safe-html.ts); 4.x's list ends with it too.
  ['safe-html', (source, target, flags) => (safeHtmlApplies(flags, [source]) ? sanitizeHtml(target, source) : target)],
];

/**
 * Fixes each target form against its source form: the same index while the source has it, else the last
 * (plural) source form (§4.2). Empty forms stay empty.
 */
export function applyAutofixes(source: readonly string[], target: readonly string[], flags: Flags, languageCode: string): FixResult {
  const language = languageCode.toLowerCase().split(/[_@-]/)[0];
  const applied: string[] = [];
  const fixed = target.map((form) => form);
  for (const [id, fix] of FIXES) {
    let changed = false;
    for (let i = 0; i < fixed.length; i += 1) {
      if (fixed[i] === '') continue;
      const next = fix(i < source.length ? source[i] : source[source.length - 1], fixed[i], flags, language);
      if (next !== fixed[i]) {
        fixed[i] = next;
        changed = true;
      }
    }
    if (changed) applied.push(id);
  }
  return { target: fixed, applied };
}
