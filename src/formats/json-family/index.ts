import type { Exporter, FileFormat } from '../store';
import { ARB_FORMAT } from './arb.format';
import { JSON_EXPORTER, JSON_NESTED_EXPORTER } from './exporters';
import { GO_I18N_JSON_V2_FORMAT } from './go-i18n-v2.format';
import { GO_I18N_JSON_FORMAT } from './go-i18n.format';
import { I18NEXT_V3_FORMAT, I18NEXT_V4_FORMAT } from './i18next.format';
import { JSON_FILE_FORMAT, JSON_NESTED_FILE_FORMAT } from './json.format';
import { WEBEXTENSION_FORMAT } from './webextension.format';

// The JSON family of file formats (issue 11; formats.md §3.8-§3.12), each under Weblate's id; docs/formats/json-family.md.
export const JSON_FAMILY_FORMATS: readonly FileFormat[] = [
  JSON_NESTED_FILE_FORMAT,
  JSON_FILE_FORMAT,
  I18NEXT_V3_FORMAT,
  I18NEXT_V4_FORMAT,
  ARB_FORMAT,
  WEBEXTENSION_FORMAT,
  GO_I18N_JSON_FORMAT,
  GO_I18N_JSON_V2_FORMAT,
];

export const JSON_FAMILY_EXPORTERS: readonly Exporter[] = [JSON_EXPORTER, JSON_NESTED_EXPORTER];
