import type { Exporter, FileFormat } from '../store';
import { FLUENT_FORMAT } from './fluent-format';

export const FLUENT_FORMATS: readonly FileFormat[] = [FLUENT_FORMAT];
/** Weblate has no Fluent exporter (formats.md §4). */
export const FLUENT_EXPORTERS: readonly Exporter[] = [];
