// Android string resource escaping (formats.md §3.3 "Reading rules" / "Escaping on write"), checked against
// translate-toolkit 3.8.4 as a black box. Works on decoded character data: XML entities are handled by the
// tokenizer (reading) and xml-escape.ts (writing).

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

export interface AndroidUnescapeOptions {
  /** Drop whitespace at the start / end (a plain value; markup values keep edge spaces, collapsed). */
  trim: boolean;
}

/**
 * Android's reading of a text run: unquoted whitespace runs collapse to one space (a run right before an
 * escaped `\n` disappears), `"` delimits quoted runs whose spaces are kept, and `\'` `\"` `\\` `\@` `\?` `\n`
 * `\t` `\uXXXX` are decoded. Linear: one pass, no regexes over the input.
 */
export function unescapeAndroid(text: string, options: AndroidUnescapeOptions): string {
  let out = '';
  let quoted = false;
  let pendingSpace = false;
  const flush = (): void => {
    if (pendingSpace && (out.length > 0 || !options.trim)) out += ' ';
    pendingSpace = false;
  };
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '\\') {
      if (i + 1 >= text.length) {
        flush();
        out += '\\';
        break;
      }
      const next = text[i + 1];
      i += 1;
      if (next === 'n') {
        pendingSpace = false;
        out += '\n';
        continue;
      }
      flush();
      if (next === 't') out += '\t';
      else if (next === 'u') {
        let digits = '';
        while (digits.length < 4 && i + 1 < text.length && /[0-9a-fA-F]/.test(text[i + 1])) {
          digits += text[i + 1];
          i += 1;
        }
        if (digits) out += String.fromCharCode(parseInt(digits, 16));
      } else if (!/[a-zA-Z]/.test(next)) out += next; // \' \" \\ \@ \? and any other symbol: the symbol
      // an unknown letter escape (\x) is dropped, as translate-toolkit does
    } else if (char === '"') {
      flush();
      quoted = !quoted;
    } else if (WHITESPACE.has(char)) {
      if (quoted) {
        flush();
        out += char === '\r' ? '' : ' ';
      } else pendingSpace = true;
    } else {
      flush();
      out += char;
    }
  }
  if (pendingSpace && !options.trim) out += ' ';
  return out;
}

export interface AndroidEscapeOptions {
  /** Wrap in `"..."` when the text has edge or double spaces (plain values only). */
  quoteSpaces: boolean;
  /** The text starts the value: a leading `@` (a resource reference otherwise) is escaped. */
  atValueStart: boolean;
}

/** Android escaping of one text run, before XML escaping. A newline becomes a real newline plus `\n`. */
export function escapeAndroid(text: string, options: AndroidEscapeOptions): string {
  let out = '';
  for (const char of text) {
    switch (char) {
      case '\\':
        out += '\\\\';
        break;
      case "'":
        out += "\\'";
        break;
      case '"':
        out += '\\"';
        break;
      case '?':
        out += '\\?';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\n':
        out += '\n\\n';
        break;
      default:
        out += char;
    }
  }
  if (options.atValueStart && out.startsWith('@')) out = `\\${out}`;
  if (options.quoteSpaces && /^ | $| {2}/.test(text)) out = `"${out}"`;
  return out;
}
