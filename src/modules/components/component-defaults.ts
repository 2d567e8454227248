// Weblate's defaults for every writable component field (weblate-api.md §6.3; 4.x, the spec's era). A
// component created through the API gets these for whatever the request leaves out. The message templates
// are shared with the demo import (src/sync/component-defaults.ts).

import { DEFAULT_MESSAGE_TEMPLATES } from '../../sync/component-defaults';

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
  commit_message: DEFAULT_MESSAGE_TEMPLATES.commitMessage,
  add_message: DEFAULT_MESSAGE_TEMPLATES.addMessage,
  delete_message: DEFAULT_MESSAGE_TEMPLATES.deleteMessage,
  merge_message: DEFAULT_MESSAGE_TEMPLATES.mergeMessage,
  addon_message: DEFAULT_MESSAGE_TEMPLATES.addonMessage,
  pull_message: DEFAULT_MESSAGE_TEMPLATES.pullMessage,
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
