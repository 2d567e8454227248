import { serializeJson } from '../../common/serialization/json-writer';
import { StatisticsCounters, toNamedStatistics, toProjectLanguageStatistics, toStatistics, toTranslationStatistics } from './statistics.response';

const counters = (overrides: Partial<StatisticsCounters> = {}): StatisticsCounters => ({
  total: 3,
  totalWords: 7,
  totalChars: 40,
  translated: 2,
  translatedWords: 5,
  translatedChars: 21,
  fuzzy: 1,
  approved: 0,
  readonly: 1,
  failing: 1,
  suggestions: 0,
  comments: 2,
  lastChange: '2024-05-03 10:11:12.5+00',
  recentChanges: 4,
  ...overrides,
});

describe('statistics mapper', () => {
  it('writes the 4.x keys in order with truncated one-decimal percentages', () => {
    expect(serializeJson(toStatistics(counters()))).toBe(
      '{"total":3,"total_words":7,"last_change":"2024-05-03T10:11:12.500000Z","recent_changes":4,' +
        '"translated":2,"translated_words":5,"translated_percent":66.6,"translated_words_percent":71.4,' +
        '"translated_chars":21,"translated_chars_percent":52.5,"total_chars":40,"fuzzy":1,"fuzzy_percent":33.3,' +
        '"failing":1,"failing_percent":33.3,"approved":0,"approved_percent":0.0,"readonly":1,"readonly_percent":33.3,' +
        '"suggestions":0,"comments":2}',
    );
  });

  it('counts an empty scope as fully translated and nothing else, with no changes', () => {
    const empty = toStatistics(
      counters({ total: 0, totalWords: 0, totalChars: 0, translated: 0, translatedWords: 0, translatedChars: 0, fuzzy: 0, readonly: 0, failing: 0, comments: 0, lastChange: null, recentChanges: 9 }),
    );
    expect(serializeJson(empty)).toContain('"last_change":null,"recent_changes":0,');
    expect(serializeJson(empty)).toContain('"translated_percent":100.0,"translated_words_percent":100.0');
    expect(serializeJson(empty)).toContain('"translated_chars_percent":100.0');
    expect(serializeJson(empty)).toContain('"fuzzy_percent":0.0,"failing":0,"failing_percent":0.0');
  });

  it('keeps 0.1 and 99.9 for tiny and almost complete ratios', () => {
    const stats = toStatistics(counters({ total: 2000, translated: 1999, fuzzy: 1, totalWords: 2000, translatedWords: 1999 }));
    expect(serializeJson(stats)).toContain('"translated_percent":99.9');
    expect(serializeJson(stats)).toContain('"fuzzy_percent":0.1');
  });

  it('appends the object keys after the statistics', () => {
    expect(Object.keys(toNamedStatistics(counters(), 'Demo', 'http://s/projects/demo/')).slice(-3)).toEqual(['comments', 'name', 'url']);
    const translation = toTranslationStatistics(counters(), {
      code: 'cs',
      name: 'Czech',
      webUrl: 'http://s/projects/demo/app/cs/',
      translateUrl: 'http://s/translate/demo/app/cs/',
      lastAuthor: null,
    });
    expect(Object.keys(translation).slice(-6)).toEqual(['comments', 'code', 'name', 'url', 'translate_url', 'last_author']);
  });

  it('shapes a project language item like Weblate 4.x', () => {
    expect(serializeJson(toProjectLanguageStatistics(counters(), { code: 'cs', name: 'Czech' }))).toBe(
      '{"language":"Czech","code":"cs","total":3,"translated":2,"translated_percent":66.6,"total_words":7,' +
        '"translated_words":5,"translated_words_percent":71.4,"total_chars":40,"translated_chars":21,' +
        '"translated_chars_percent":52.5}',
    );
  });
});
