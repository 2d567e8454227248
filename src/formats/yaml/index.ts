import type { Exporter, FileFormat } from '../store';
import { RUBY_YAML_FORMAT, YAML_FORMAT } from './yaml-format';

export const YAML_FORMATS: readonly FileFormat[] = [YAML_FORMAT, RUBY_YAML_FORMAT];
/** Weblate has no YAML exporter (formats.md §4). */
export const YAML_EXPORTERS: readonly Exporter[] = [];
