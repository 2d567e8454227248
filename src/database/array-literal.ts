// Array parameters written as PostgreSQL array literals up front (`$1::bigint[]` given '{1,2,3}'), for the
// statements that send tens of thousands of elements. node-postgres turns a JS array into the same text
// itself, but element by element through its generic value conversion and string concatenation; at 10,000
// elements per array that was a visible share of a bulk request's CPU and garbage (docs/performance.md,
// "Bulk translate CPU per request"). PostgreSQL reads the literal exactly as it reads the driver's.

/** `{1,2,3}`: integers (or their decimal text, as bigint ids are read) need no quoting. */
export function numberArrayLiteral(values: ReadonlyArray<number | string>): string {
  return `{${values.join(',')}}`;
}

/**
 * `{"a","b\"c"}`: every element quoted, with `"` and `\` escaped by a backslash (PostgreSQL's array input
 * rules, arrays.html "Array Value Input"). Texts hold no NUL (refused at input), the one character an array
 * literal cannot carry.
 */
export function textArrayLiteral(values: readonly string[]): string {
  const quoted = new Array<string>(values.length);
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    quoted[i] = value.includes('"') || value.includes('\\') ? `"${value.replace(/["\\]/g, '\\$&')}"` : `"${value}"`;
  }
  return `{${quoted.join(',')}}`;
}
