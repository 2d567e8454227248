import {
  decodeUtf8Text,
  FormatLimitError,
  UTF8_BOM,
  type ParsedUnit,
  type ParseOptions,
  type PathPart,
  type SerializeEntry,
  type SerializeOptions,
  type TranslationFileFormat,
} from './format';
import { buildJson } from './json/json-build';
import { flattenJson } from './json/json-flatten';
import { contextFromPath, flatPathFromContext, nestedPathFromContext } from './json/json-paths';
import { readJsonDocument } from './json/json-reader';
import { writeJsonDocument } from './json/json-writer';

// JSON formats as Weblate/translate-toolkit handle them (languages-formats-hashing.md §2.1–§2.3):
// leaves flattened to dotted contexts on read, the document rebuilt from the unit list on write.

function parseJson(content: Buffer, options: ParseOptions = {}): ParsedUnit[] {
  const limits = options.limits ?? {};
  const maxContext = limits.maxStringLength ?? Infinity;
  const leaves = flattenJson(readJsonDocument(decodeUtf8Text(content), limits));
  const byContext = new Map<string, ParsedUnit>();
  const units: ParsedUnit[] = [];
  leaves.forEach((leaf, index) => {
    // Duplicates still use up a position (§5.2), hence the index of the leaf, not of the kept unit.
    // Spelled out: an object spread here takes four times the memory per unit (V8 dictionary-like objects).
    const unit: ParsedUnit = { context: contextFromPath(leaf.path), source: leaf.source, path: leaf.path, valueType: leaf.valueType, position: index + 1 };
    // Each key is bounded by the reader; deep nesting can still join short keys into a huge context.
    if (unit.context.length > maxContext) {
      throw new FormatLimitError('string-length', `a key path longer than ${maxContext} characters ("${unit.context.slice(0, 40)}…")`);
    }
    const kept = byContext.get(unit.context);
    if (kept) {
      options.onDuplicate?.(unit, kept);
      return;
    }
    byContext.set(unit.context, unit);
    units.push(unit);
  });
  return units;
}

function serializeJson(entries: readonly SerializeEntry[], options: SerializeOptions = {}): Buffer {
  const body = Buffer.from(writeJsonDocument(buildJson(entries)), 'utf8');
  return options.bom ? Buffer.concat([UTF8_BOM, body]) : body;
}

function jsonFormat(id: string, name: string, pathFromContext: (context: string) => PathPart[]): TranslationFileFormat {
  return Object.freeze({
    id,
    name,
    // Used with a template (`sources/<slug>.json`), whose keys define the units (§2.1).
    monolingual: true,
    newTranslationContent: '{}\n',
    parse: parseJson,
    pathFromContext,
    serialize: serializeJson,
  });
}

/** `json-nested`: a unit added with context `a.b` is stored as `{"a": {"b": …}}`. */
export const JSON_NESTED_FORMAT = jsonFormat('json-nested', 'JSON nested structure file', nestedPathFromContext);

/** `json`: parses and writes existing entries exactly like json-nested; added keys stay flat (`"a.b": …`). */
export const JSON_FORMAT = jsonFormat('json', 'JSON file', flatPathFromContext);
