// gettext formats (`po`, `po-mono`) and exporters (`po`, `mo`) for the format registry (docs/formats/gettext.md).

import type { Exporter, FileFormat } from '../store';
import { MO_EXPORTER } from './mo-exporter';
import { PO_EXPORTER } from './po-exporter';
import { PO_FORMAT, PO_MONO_FORMAT } from './po.format';

export { assertUploadPluralMatches } from './po.format';

export const GETTEXT_FORMATS: readonly FileFormat[] = [PO_FORMAT, PO_MONO_FORMAT];

export const GETTEXT_EXPORTERS: readonly Exporter[] = [PO_EXPORTER, MO_EXPORTER];
