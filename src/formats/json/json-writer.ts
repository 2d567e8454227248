import type { JsonValue } from './json-value';

// Emits exactly what Python's `json.dumps(data, indent=4, separators=(",", ": "), ensure_ascii=False)`
// produces (languages-formats-hashing.md §2.2), walking Maps so key order is insertion order.

const INDENT = '    ';

// ensure_ascii=False escapes only `"`, `\` and C0 controls; everything else (U+007F, U+2028, `/`) is raw.
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/g;
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

export function writeJsonString(value: string): string {
  const escaped = value.replace(
    NEEDS_ESCAPE,
    (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `"${escaped}"`;
}

function writeValue(value: JsonValue, level: number, out: string[]): void {
  switch (value.type) {
    case 'string':
      out.push(writeJsonString(value.value));
      return;
    case 'number':
      out.push(value.text);
      return;
    case 'boolean':
      out.push(value.value ? 'true' : 'false');
      return;
    case 'null':
      out.push('null');
      return;
    case 'array':
    case 'object': {
      const [open, close] = value.type === 'array' ? ['[', ']'] : ['{', '}'];
      const size = value.type === 'array' ? value.items.length : value.members.size;
      // Python writes empty containers as `[]` / `{}` even when indenting.
      if (size === 0) {
        out.push(open + close);
        return;
      }
      const inner = `\n${INDENT.repeat(level + 1)}`;
      out.push(open);
      let first = true;
      const writeItem = (item: JsonValue, key?: string): void => {
        out.push(first ? inner : `,${inner}`);
        first = false;
        if (key !== undefined) out.push(`${writeJsonString(key)}: `);
        writeValue(item, level + 1, out);
      };
      if (value.type === 'array') value.items.forEach((item) => writeItem(item));
      else value.members.forEach((item, key) => writeItem(item, key));
      out.push(`\n${INDENT.repeat(level)}${close}`);
      return;
    }
  }
}

/** The document text, with the single trailing newline Weblate adds after `json.dumps`. */
export function writeJsonDocument(value: JsonValue): string {
  const out: string[] = [];
  writeValue(value, 0, out);
  out.push('\n');
  return out.join('');
}
