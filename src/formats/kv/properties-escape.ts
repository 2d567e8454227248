// Writing property values and keys (formats.md §3.6 "Escaping on write"): `\` `\t` `\n` `\r` `\f` escaped,
// in ISO-8859-1 files every non-ASCII UTF-16 code unit as `\uXXXX` with upper-case hex (astral characters
// become a surrogate pair of escapes), raw characters in the Unicode variants. `=`, `:`, `#`, `!` inside a
// value are left alone, as Weblate does.

function hexEscape(code: number): string {
  return '\\u' + code.toString(16).toUpperCase().padStart(4, '0');
}

function escapeChar(char: string, asciiOnly: boolean): string {
  switch (char) {
    case '\\':
      return '\\\\';
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\f':
      return '\\f';
  }
  const code = char.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return hexEscape(code);
  if (asciiOnly && code > 0x7e) return hexEscape(code);
  return char;
}

/**
 * A value as it follows the separator. A leading space is escaped (`\ `) in every variant so it survives the
 * next read (Java drops whitespace before a value); Weblate's UTF-8 writer does not, and loses it (§3.6).
 * After a whitespace-only separator a leading `=` or `:` would become the delimiter, so it is escaped too.
 */
export function escapePropertiesValue(value: string, asciiOnly: boolean, separatorHasDelimiter: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (i === 0 && (char === ' ' || (!separatorHasDelimiter && (char === '=' || char === ':')))) {
      out += '\\' + char;
      continue;
    }
    out += escapeChar(char, asciiOnly);
  }
  return out;
}

/** A key written from text (a bilingual source): delimiters, whitespace and a leading comment mark escaped. */
export function escapePropertiesKey(key: string, asciiOnly: boolean): string {
  let out = '';
  for (let i = 0; i < key.length; i++) {
    const char = key[i];
    if (char === '=' || char === ':' || char === ' ' || (i === 0 && (char === '#' || char === '!'))) {
      out += '\\' + char;
      continue;
    }
    out += escapeChar(char, asciiOnly);
  }
  return out;
}

/** A note as comment lines: lines that are already comments (`#`, `!`) stay, others get `# `. */
export function noteToCommentLines(note: string): string[] {
  const trimmed = trimTrailingLineBreaks(note);
  if (trimmed === '') return [];
  return trimmed.split(/\r\n|\r|\n/).map((line) => {
    const start = line.trimStart();
    return start.startsWith('#') || start.startsWith('!') ? line : `# ${line}`;
  });
}

/** Drops trailing CR/LF (a loop, not a regex: notes come from users). */
export function trimTrailingLineBreaks(text: string): string {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 0x0a || text.charCodeAt(end - 1) === 0x0d)) end--;
  return text.slice(0, end);
}
