import type { TranslationFileFormat } from './format';
import { JSON_FORMAT, JSON_NESTED_FORMAT } from './json-nested.format';

// Formats keyed by Weblate's `file_format` id (shared/design/architecture.md, "File formats").
export const FILE_FORMATS: ReadonlyMap<string, TranslationFileFormat> = new Map(
  [JSON_NESTED_FORMAT, JSON_FORMAT].map((format) => [format.id, format]),
);

export function getFileFormat(id: string): TranslationFileFormat | undefined {
  return FILE_FORMATS.get(id);
}
