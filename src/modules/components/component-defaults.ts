// Weblate's defaults for every writable component field (weblate-api.md §6.3; 4.x, the spec's era). A
// component created through the API gets these for whatever the request leaves out.

/**
 * Default message templates, Weblate 4.x `DEFAULT_*_MESSAGE` (languages-formats-hashing.md §4.1,
 * weblate-api.md §8.10), exact text. Components created through the API keep LF line breaks; only
 * Weblate's HTML forms turn them into CRLF (§4.1).
 */
export const DEFAULT_COMMIT_MESSAGE =
  'Translated using Weblate ({{ language_name }})\n\n' +
  'Currently translated at {{ stats.translated_percent }}% ({{ stats.translated }} of {{ stats.all }} strings)\n\n' +
  'Translation: {{ project_name }}/{{ component_name }}\n' +
  'Translate-URL: {{ url }}';

export const DEFAULT_ADD_MESSAGE = 'Added translation using Weblate ({{ language_name }})\n\n';

export const DEFAULT_DELETE_MESSAGE = 'Deleted translation using Weblate ({{ language_name }})\n\n';

export const DEFAULT_MERGE_MESSAGE = "Merge branch '{{ component_remote_branch }}' into Weblate.\n\n";

export const DEFAULT_ADDON_MESSAGE =
  'Update translation files\n\n' +
  'Updated by "{{ addon_name }}" add-on in Weblate.\n\n' +
  'Translation: {{ project_name }}/{{ component_name }}\n' +
  'Translate-URL: {{ url }}';

export const DEFAULT_PULL_MESSAGE =
  'Translations update from {{ site_title }}\n\n' +
  'Translations update from [{{ site_title }}]({{ site_url }}) for [{{ project_name }}/{{ component_name }}]({{url}}).\n\n' +
  '{% if component_linked_childs %}\n' +
  'It also includes following components:\n' +
  '{% for linked in component_linked_childs %}\n' +
  '* [{{ linked.project_name }}/{{ linked.name }}]({{ linked.url }})\n' +
  '{% endfor %}\n' +
  '{% endif %}\n\n' +
  'Current translation status:\n\n' +
  '![Weblate translation status]({{widget_url}})\n';

/** Writable component settings a create request may omit, keyed by wire name, with Weblate's defaults. */
export interface ComponentSettingDefaults {
  vcs: string;
  git_export: string;
  branch: string;
  push_branch: string;
  screenshot_filemask: string;
  template: string;
  edit_template: boolean;
  intermediate: string;
  new_base: string;
  license: string;
  agreement: string;
  new_lang: string;
  language_code_style: string;
  push: string;
  check_flags: string;
  priority: number;
  enforced_checks: string[];
  restricted: boolean;
  repoweb: string;
  report_source_bugs: string;
  merge_style: string;
  commit_message: string;
  add_message: string;
  delete_message: string;
  merge_message: string;
  addon_message: string;
  pull_message: string;
  allow_translation_propagation: boolean;
  manage_units: boolean;
  enable_suggestions: boolean;
  suggestion_voting: boolean;
  suggestion_autoaccept: number;
  push_on_commit: boolean;
  commit_pending_age: number;
  auto_lock_error: boolean;
  language_regex: string;
  variant_regex: string;
  is_glossary: boolean;
  glossary_color: string;
}

/**
 * weblate-api.md §6.3 "Default / notes" column. `branch` is empty: the remote's default branch is used and
 * stored by the first import, as Weblate does. `merge_style` is Weblate's DEFAULT_MERGE_STYLE (§8.7).
 * `manage_units` becomes true on create when a template is given and the request does not set it (§6.3).
 */
export const COMPONENT_DEFAULTS: Readonly<ComponentSettingDefaults> = Object.freeze({
  vcs: 'git',
  git_export: '',
  branch: '',
  push_branch: '',
  screenshot_filemask: '',
  template: '',
  edit_template: true,
  intermediate: '',
  new_base: '',
  license: '',
  agreement: '',
  new_lang: 'add',
  language_code_style: '',
  push: '',
  check_flags: '',
  priority: 100,
  enforced_checks: [],
  restricted: false,
  repoweb: '',
  report_source_bugs: '',
  merge_style: 'rebase',
  commit_message: DEFAULT_COMMIT_MESSAGE,
  add_message: DEFAULT_ADD_MESSAGE,
  delete_message: DEFAULT_DELETE_MESSAGE,
  merge_message: DEFAULT_MERGE_MESSAGE,
  addon_message: DEFAULT_ADDON_MESSAGE,
  pull_message: DEFAULT_PULL_MESSAGE,
  allow_translation_propagation: true,
  manage_units: false,
  enable_suggestions: true,
  suggestion_voting: false,
  suggestion_autoaccept: 0,
  push_on_commit: true,
  commit_pending_age: 24,
  auto_lock_error: true,
  language_regex: '^[^.]+$',
  variant_regex: '',
  is_glossary: false,
  glossary_color: 'silver',
});

/** The component source language when a create request names none: the site default, English (§6.3). */
export const DEFAULT_SOURCE_LANGUAGE = 'en';
