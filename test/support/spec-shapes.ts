// Key lists and kinds of the spec's resources (api-spec.md), shared by the suites that check exact shapes.

export const PROJECT_KEYS = [
  'name', 'slug', 'id', 'web', 'web_url', 'url', 'components_list_url', 'repository_url', 'statistics_url',
  'changes_list_url', 'languages_url', 'translation_review', 'source_review', 'set_language_team', 'instructions',
  'enable_hooks', 'language_aliases',
];

export const COMPONENT_KEYS = [
  'name', 'slug', 'id', 'source_language', 'project', 'vcs', 'repo', 'push', 'git_export', 'branch', 'push_branch',
  'filemask', 'screenshot_filemask', 'template', 'edit_template', 'intermediate', 'new_base', 'file_format', 'license',
  'license_url', 'agreement', 'web_url', 'url', 'repository_url', 'translations_url', 'statistics_url', 'lock_url',
  'links_url', 'changes_list_url', 'task_url', 'new_lang', 'language_code_style', 'check_flags', 'priority',
  'enforced_checks', 'restricted', 'repoweb', 'report_source_bugs', 'merge_style', 'commit_message', 'add_message',
  'delete_message', 'merge_message', 'addon_message', 'pull_message', 'allow_translation_propagation', 'manage_units',
  'enable_suggestions', 'suggestion_voting', 'suggestion_autoaccept', 'push_on_commit', 'commit_pending_age',
  'auto_lock_error', 'language_regex', 'variant_regex', 'addons', 'is_glossary', 'glossary_color',
];

export const TRANSLATION_KEYS = [
  'language', 'component', 'language_code', 'id', 'filename', 'revision', 'web_url', 'share_url', 'translate_url', 'url',
  'is_template', 'is_source', 'total', 'total_words', 'translated', 'translated_words', 'translated_percent', 'fuzzy',
  'fuzzy_words', 'fuzzy_percent', 'failing_checks', 'failing_checks_words', 'failing_checks_percent', 'have_suggestion',
  'have_comment', 'last_change', 'last_author', 'repository_url', 'file_url', 'statistics_url', 'changes_list_url',
  'units_list_url',
];

// api-spec.md "Events": the kinds per observed scope, spelt exactly (misspellings included).
export const SCOPE_10_KINDS = [
  'LastAuthorCommentNotificaton', 'MentionCommentNotificaton', 'NewAnnouncementNotificaton', 'NewStringNotificaton',
  'NewContributorNotificaton', 'NewSuggestionNotificaton', 'NewCommentNotificaton', 'ChangedStringNotificaton',
  'PendingSuggestionsNotification', 'ToDoStringsNotification',
];

export const SCOPE_20_KINDS = [
  'MergeFailureNotification', 'ParseErrorNotification', 'NewTranslationNotificaton', 'NewComponentNotificaton',
  'NewAlertNotificaton', 'NewAnnouncementNotificaton',
];
