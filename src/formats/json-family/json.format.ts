import { flatPathFromContext, nestedPathFromContext } from '../json/json-paths';
import type { FileFormat } from '../store';
import { keyedJsonFormat } from './keyed-json';

// formats.md §3.8: `json` and `json-nested` read identically (every leaf a unit, dotted contexts, numbers
// and booleans in Python spelling, null as ""); they differ only in where a new dotted key goes.

/** `json-nested`: a unit added with context `a.b` is stored as `{"a": {"b": …}}`. */
export const JSON_NESTED_FILE_FORMAT: FileFormat = keyedJsonFormat({
  id: 'json-nested',
  name: 'JSON nested structure file',
  extension: 'json',
  kind: 'both',
  defaultIndent: '    ',
  pathFromContext: nestedPathFromContext,
});

/** `json`: parses like json-nested; a key added without a template entry stays flat (`"a.b": …`). */
export const JSON_FILE_FORMAT: FileFormat = keyedJsonFormat({
  id: 'json',
  name: 'JSON file',
  extension: 'json',
  kind: 'both',
  defaultIndent: '    ',
  pathFromContext: flatPathFromContext,
});
