// Qt Linguist, .NET RESX and Apple stringsdict (issue 11), registered by the integrator next to XML_FORMATS.

import type { FileFormat } from '../store';
import { RESX_FORMAT } from './resx-format';
import { STRINGSDICT_FORMAT } from './stringsdict-format';
import { TS_FORMAT } from './ts-format';

export const XML2_FORMATS: readonly FileFormat[] = [TS_FORMAT, RESX_FORMAT, STRINGSDICT_FORMAT];
