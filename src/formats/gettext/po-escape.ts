// PO string escapes as translate-toolkit reads and writes them (formats.md §3.1 "Encoding and escaping"):
// it writes only `\\`, `\"`, `\n`, `\t` and `\r`; reading, a backslash before any other character yields that
// character (so `\a` reads as `a`), which is what Weblate then stores.

const UNESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };
const ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '"': '\\"', '\\': '\\\\' };
const NEEDS_ESCAPE = /[\n\t\r"\\]/g;

/** The text between the quotes of one PO string line, escapes resolved. */
export function unescapePo(raw: string): string {
  if (!raw.includes('\\')) return raw;
  let out = '';
  let from = 0;
  for (let i = raw.indexOf('\\'); i !== -1 && i < raw.length - 1; i = raw.indexOf('\\', from)) {
    const next = raw[i + 1];
    out += raw.slice(from, i) + (UNESCAPES[next] ?? next);
    from = i + 2;
  }
  return out + raw.slice(from);
}

export function escapePo(text: string): string {
  return text.replace(NEEDS_ESCAPE, (char) => ESCAPES[char]);
}

/**
 * Finds the closing quote of a PO string starting at `open` (the index of `"`). Returns the index of the
 * closing quote, or -1 when the line ends first.
 */
export function findClosingQuote(line: string, open: number): number {
  for (let i = open + 1; i < line.length; i++) {
    const char = line.charCodeAt(i);
    if (char === 0x5c /* \ */) i++;
    else if (char === 0x22 /* " */) return i;
  }
  return -1;
}
