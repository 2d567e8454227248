// The key/value and table family (issue 11): Java properties, Apple .strings, CSV, and the csv, xlsx and
// strings converted downloads. docs/formats/kv.md describes each and its differences from Weblate.

import type { Exporter, FileFormat } from '../store';
import { CSV_EXPORTER } from './csv.exporter';
import { CSV_FORMATS } from './csv.format';
import { PROPERTIES_FORMATS } from './properties.format';
import { STRINGS_EXPORTER } from './strings.exporter';
import { STRINGS_FORMATS } from './strings.format';
import { XLSX_EXPORTER } from './xlsx.exporter';

export const KV_FORMATS: readonly FileFormat[] = [...PROPERTIES_FORMATS, ...STRINGS_FORMATS, ...CSV_FORMATS];

export const KV_EXPORTERS: readonly Exporter[] = [CSV_EXPORTER, XLSX_EXPORTER, STRINGS_EXPORTER];
