import { GETTEXT_EXPORTERS } from './gettext';
import { JSON_FAMILY_EXPORTERS } from './json-family';
import { KV_EXPORTERS } from './kv';
import { XML_EXPORTERS } from './xml';
import type { Exporter } from './store';

// Converted downloads keyed by Weblate's exporter id (formats.md §4; `?format=<id>` and `zip:<id>`).
// Registering a family's exporters is one import and one entry of EXPORTER_FAMILIES.
const EXPORTER_FAMILIES: ReadonlyArray<readonly Exporter[]> = [GETTEXT_EXPORTERS, XML_EXPORTERS, KV_EXPORTERS, JSON_FAMILY_EXPORTERS];

export const EXPORTERS: ReadonlyMap<string, Exporter> = new Map(EXPORTER_FAMILIES.flat().map((exporter) => [exporter.id, exporter]));

export function getExporter(id: string): Exporter | undefined {
  return EXPORTERS.get(id);
}
