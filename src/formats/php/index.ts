import type { Exporter, FileFormat } from '../store';
import { LARAVEL_FORMAT, PHP_FORMAT } from './php-format';

export const PHP_FORMATS: readonly FileFormat[] = [PHP_FORMAT, LARAVEL_FORMAT];
/** Weblate has no PHP exporter (formats.md §4). */
export const PHP_EXPORTERS: readonly Exporter[] = [];
