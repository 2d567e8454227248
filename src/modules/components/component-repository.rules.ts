import type { FieldErrors } from '../../common/http/api-errors';
import { usesTemplate } from '../../formats/format.registry';
import type { FileFormat } from '../../formats/store';
import { matchFilemask } from '../../vcs/filemask';

// The checks Weblate's Component.clean() makes against the repository's files before a component is saved
// (clean_files, clean_template, clean_new_lang; issue 12), in that order; as there, the first failure is the
// answer. `files` are the tracked paths at the tip of the component's branch.

export interface RepositoryFileSettings {
  filemask: string;
  language_regex: string;
  template: string;
  intermediate: string;
  new_base: string;
}

const MISSING = 'File does not exist.';

export function repositoryFileErrors(files: readonly string[], settings: RepositoryFileSettings, format: FileFormat | undefined): FieldErrors | null {
  if (matchFilemask([...files], settings.filemask, settings.language_regex).length === 0) {
    return { filemask: ['The file mask did not match any files.'] };
  }
  const present = new Set(files);
  if (format && usesTemplate(format, settings.template)) {
    if (settings.template === '') return { template: ['You can not use a monolingual translation without a base file.'] };
    if (!present.has(settings.template)) return { template: [MISSING] };
    if (settings.intermediate !== '' && !present.has(settings.intermediate)) return { intermediate: [MISSING] };
  }
  if (settings.new_base !== '' && !present.has(settings.new_base)) return { new_base: [MISSING] };
  return null;
}
