import { FLUENT_FORMATS } from './fluent';
import { GETTEXT_FORMATS } from './gettext';
import { JSON_FAMILY_FORMATS } from './json-family';
import { KV_FORMATS } from './kv';
import { PHP_FORMATS } from './php';
import { XML_FORMATS } from './xml';
import { XML2_FORMATS } from './xml/index-xml2';
import { YAML_FORMATS } from './yaml';
import type { FileFormat } from './store';

// Formats keyed by Weblate's `file_format` id (issue 11, docs/formats.md "Registry"). Registering a family
// is one import and one entry of FORMAT_FAMILIES; the API's `file_format` choices, the OpenAPI enum, the
// parse worker and the sync layer all read this map. Order: the order of the OpenAPI enum.
const FORMAT_FAMILIES: ReadonlyArray<readonly FileFormat[]> = [
  JSON_FAMILY_FORMATS,
  GETTEXT_FORMATS,
  XML_FORMATS,
  XML2_FORMATS,
  KV_FORMATS,
  YAML_FORMATS,
  PHP_FORMATS,
  FLUENT_FORMATS,
];

export const FILE_FORMATS: ReadonlyMap<string, FileFormat> = new Map(FORMAT_FAMILIES.flat().map((format) => [format.id, format]));

export function getFileFormat(id: string): FileFormat | undefined {
  return FILE_FORMATS.get(id);
}

/**
 * Whether a component's units come from its template (formats.md §2.1): monolingual formats always, "both"
 * formats when the component has a template, bilingual ones never.
 */
export function usesTemplate(format: FileFormat, template: string): boolean {
  return format.kind === 'mono' || (format.kind === 'both' && template !== '');
}

/** The format a file name's extension names (Weblate's autoload guess for uploads, formats.md §5); the first registered wins. */
export function formatForFilename(filename: string): FileFormat | undefined {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return undefined;
  const extension = filename.slice(dot + 1).toLowerCase();
  for (const format of FILE_FORMATS.values()) if (format.extension === extension) return format;
  return undefined;
}

/** Bytes translate-toolkit's factory looks at to guess a file's type when its name does not tell it. */
export const SNIFF_BYTES = 300;

/**
 * The format the start of a file names, as translate-toolkit's factory guesses a type from content when the
 * extension is unknown (it reads the first 300 bytes and looks for `<xliff `, `msgid "` or `<!DOCTYPE TS>`);
 * formats.md §5 step 3. Only the head is read: nothing is parsed here.
 */
export function formatForContent(content: Buffer): FileFormat | undefined {
  const head = content.subarray(0, SNIFF_BYTES).toString('latin1');
  if (head.includes('<xliff ')) return FILE_FORMATS.get('xliff');
  if (head.includes('msgid "')) return FILE_FORMATS.get('po');
  if (head.includes('<!DOCTYPE TS>')) return FILE_FORMATS.get('ts');
  return undefined;
}
