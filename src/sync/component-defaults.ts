// Weblate's default message templates (DEFAULT_*_MESSAGE, 4.x wording; languages-formats-hashing.md §4.1,
// weblate-api.md §8.10). Components created by the API or the server keep LF line breaks (§4.1: only web
// forms turn them into CRLF).

export interface ComponentMessageTemplates {
  commitMessage: string;
  addMessage: string;
  deleteMessage: string;
  mergeMessage: string;
  addonMessage: string;
  pullMessage: string;
}

export const DEFAULT_MESSAGE_TEMPLATES: Readonly<ComponentMessageTemplates> = Object.freeze({
  commitMessage:
    'Translated using Weblate ({{ language_name }})\n\n' +
    'Currently translated at {{ stats.translated_percent }}% ({{ stats.translated }} of {{ stats.all }} strings)\n\n' +
    'Translation: {{ project_name }}/{{ component_name }}\n' +
    'Translate-URL: {{ url }}',
  addMessage: 'Added translation using Weblate ({{ language_name }})\n\n',
  deleteMessage: 'Deleted translation using Weblate ({{ language_name }})\n\n',
  mergeMessage: "Merge branch '{{ component_remote_branch }}' into Weblate.\n\n",
  addonMessage:
    'Update translation files\n\n' +
    'Updated by "{{ addon_name }}" add-on in Weblate.\n\n' +
    'Translation: {{ project_name }}/{{ component_name }}\n' +
    'Translate-URL: {{ url }}',
  pullMessage:
    'Translations update from {{ site_title }}\n\n' +
    'Translations update from [{{ site_title }}]({{ site_url }}) for [{{ project_name }}/{{ component_name }}]({{url}}).\n\n' +
    '{% if component_linked_childs %}\n' +
    'It also includes following components:\n' +
    '{% for linked in component_linked_childs %}\n' +
    '* [{{ linked.project_name }}/{{ linked.name }}]({{ linked.url }})\n' +
    '{% endfor %}\n' +
    '{% endif %}\n\n' +
    'Current translation status:\n\n' +
    '![Weblate translation status]({{widget_url}})\n',
});
