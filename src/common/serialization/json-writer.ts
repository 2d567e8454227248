/**
 * A number that Weblate writes with one decimal place (`100.0`, `66.6`). JSON.stringify would write
 * `100`, which wlc and strict clients read as an integer (wlc-client.md §3.2).
 */
export class OneDecimal {
  constructor(readonly value: number) {}
}

/**
 * Compact JSON as DRF renders it, plus two things JSON.stringify cannot do: `bigint` values become exact
 * integer literals (id_hash/content_hash exceed 2^53, architecture.md "The contract") and OneDecimal
 * values keep their decimal point. Strings go through JSON.stringify, so escaping is standard and UTF-8
 * stays unescaped.
 */
export function serializeJson(value: unknown): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

function write(value: unknown, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'bigint':
      out.push(value.toString());
      return;
    case 'number':
      out.push(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    default:
      break;
  }
  if (value instanceof OneDecimal) {
    out.push(value.value.toFixed(1));
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, index) => {
      if (index > 0) out.push(',');
      write(item, out);
    });
    out.push(']');
    return;
  }
  if (value instanceof Date) {
    out.push(JSON.stringify(value.toISOString()));
    return;
  }
  out.push('{');
  let first = true;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === undefined) continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    write(item, out);
  }
  out.push('}');
}
