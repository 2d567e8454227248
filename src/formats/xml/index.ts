// The XML file formats (issue 11): Android resources, XLIFF 1.2 and XLIFF with gettext extensions, and the
// XML exporters. Other XML formats (ts, resx, stringsdict) build on the same tokenizer (xml-tokenizer.ts).

import type { Exporter, FileFormat } from '../store';
import { ANDROID_RESOURCE_FORMAT } from './aresource.format';
import { ANDROID_EXPORTER, TBX_EXPORTER, TMX_EXPORTER, XLIFF11_EXPORTER, XLIFF_EXPORTER } from './xml-exporters';
import { PLAINXLIFF_FORMAT, POXLIFF_FORMAT, XLIFF_FORMAT } from './xliff.format';

export const XML_FORMATS: readonly FileFormat[] = [ANDROID_RESOURCE_FORMAT, XLIFF_FORMAT, PLAINXLIFF_FORMAT, POXLIFF_FORMAT];

export const XML_EXPORTERS: readonly Exporter[] = [XLIFF_EXPORTER, XLIFF11_EXPORTER, TBX_EXPORTER, TMX_EXPORTER, ANDROID_EXPORTER];
