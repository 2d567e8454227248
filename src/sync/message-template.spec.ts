import { DEFAULT_MESSAGE_TEMPLATES } from './component-defaults';
import { MessageTemplateError, PythonFloat, renderMessageTemplate } from './message-template';

// Expected texts are what Django renders for Weblate's defaults (languages-formats-hashing.md §4.1, §4.3).

const context = {
  language_name: 'Czech',
  stats: { translated_percent: new PythonFloat(50), translated: 2, all: 4 },
  project_name: 'Hello',
  component_name: 'Weblate',
  url: 'https://example.org/projects/hello/weblate/cs/',
  site_title: 'Weblate',
  site_url: 'https://example.org',
  widget_url: 'https://example.org/widget/hello/weblate/svg-badge.svg',
  component_linked_childs: [] as unknown[],
};

describe('renderMessageTemplate', () => {
  it('renders the default commit message byte for byte, percentages with their decimal', () => {
    expect(renderMessageTemplate(DEFAULT_MESSAGE_TEMPLATES.commitMessage, context)).toBe(
      'Translated using Weblate (Czech)\n\nCurrently translated at 50.0% (2 of 4 strings)\n\n' +
        'Translation: Hello/Weblate\nTranslate-URL: https://example.org/projects/hello/weblate/cs/',
    );
    expect(renderMessageTemplate('{{ p }}', { p: new PythonFloat(66.6) })).toBe('66.6');
  });

  it('treats an empty list as false and loops over a non-empty one (pull message)', () => {
    const empty = renderMessageTemplate(DEFAULT_MESSAGE_TEMPLATES.pullMessage, context);
    expect(empty).not.toContain('It also includes');
    expect(empty).toBe(
      'Translations update from Weblate\n\nTranslations update from [Weblate](https://example.org) for ' +
        '[Hello/Weblate](https://example.org/projects/hello/weblate/cs/).\n\n\n\nCurrent translation status:\n\n' +
        '![Weblate translation status](https://example.org/widget/hello/weblate/svg-badge.svg)\n',
    );
    const linked = renderMessageTemplate(DEFAULT_MESSAGE_TEMPLATES.pullMessage, {
      ...context,
      component_linked_childs: [{ project_name: 'Hello', name: 'Android', url: 'https://example.org/a/' }],
    });
    expect(linked).toContain('\nIt also includes following components:\n\n* [Hello/Android](https://example.org/a/)\n\n');
  });

  it('accepts Django filter syntax, Django truthiness and forloop.counter', () => {
    expect(renderMessageTemplate('{{ x|default:"y" }}-{{ n|upper }}-{% if e %}e{% endif %}{% if z %}z{% endif %}', { x: '', n: 'ab', e: '', z: 0 })).toBe('y-AB-');
    expect(renderMessageTemplate('{% for i in l %}{{ forloop.counter }}{% endfor %}', { l: ['a', 'b'] })).toBe('12');
  });

  it('refuses undefined variables and broken syntax', () => {
    expect(() => renderMessageTemplate('{{ nope }}', {})).toThrow(MessageTemplateError);
    expect(() => renderMessageTemplate('{% if %}', {})).toThrow(MessageTemplateError);
  });
});
