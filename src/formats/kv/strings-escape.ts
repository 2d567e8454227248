// Escaping for Apple .strings (formats.md §3.4 "Escaping on write"): `\` `"` newline and tab escaped, CR
// too (Weblate would write it raw, which Xcode reads back as a line break only by accident), everything
// else written raw. Shared by the `strings` format and the `strings` exporter.

export function escapeStrings(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') out += '\\\\';
    else if (char === '"') out += '\\"';
    else if (char === '\n') out += '\\n';
    else if (char === '\t') out += '\\t';
    else if (char === '\r') out += '\\r';
    else out += char;
  }
  return out;
}

/**
 * A key as translate-toolkit reads it back: Weblate's context of a .strings entry keeps every escape but
 * `\"` as written (`"a\\b"` has context `a\\b`), so only quotes and raw line breaks and tabs are escaped.
 */
export function escapeStringsKey(key: string): string {
  let out = '';
  for (let i = 0; i < key.length; i++) {
    const char = key[i];
    if (char === '"' && key[i - 1] !== '\\') out += '\\"';
    else if (char === '\n') out += '\\n';
    else if (char === '\t') out += '\\t';
    else if (char === '\r') out += '\\r';
    else out += char;
  }
  return out;
}

/** `"key" = "value";` with one space around `=`, as Weblate writes an entry. */
export function stringsEntry(key: string, value: string): string {
  return `"${escapeStringsKey(key)}" = "${escapeStrings(value)}";`;
}

/** A note as a comment: kept as written when it already is a block or line comment, else wrapped in a block comment. */
export function noteToStringsComment(note: string): string {
  const trimmed = note.trim();
  if (trimmed === '') return '';
  if ((trimmed.startsWith('/*') && trimmed.endsWith('*/')) || trimmed.startsWith('//')) return trimmed;
  return `/* ${trimmed.split('*/').join('* /')} */`;
}
