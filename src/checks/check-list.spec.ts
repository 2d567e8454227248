import { describeCheck, isWeblate418Check, LISTED_CHECKS, WEBLATE_CHECK_IDS, WEBLATE_CHECKS } from './check-list';
import { BATCH_SOURCE_CHECKS } from './source-checks';

describe('the list of check ids', () => {
  it('names every id once', () => {
    expect(new Set(WEBLATE_CHECK_IDS).size).toBe(WEBLATE_CHECKS.length);
  });

  it("lists every check Glossa evaluates, with Weblate's name", () => {
    const byId = new Map(WEBLATE_CHECKS.map((check) => [check.id, check.name]));
    for (const check of LISTED_CHECKS) expect(byId.get(check.id)).toBe(check.name);
    for (const id of BATCH_SOURCE_CHECKS) expect(byId.has(id)).toBe(true);
  });

  it("marks Weblate 4.18's checks: later ones are not valid enforced checks", () => {
    for (const id of ['same', 'end_stop', 'max-size', 'bbcode', 'c_format', 'ruby_format', 'ellipsis', 'icu_message_format_syntax']) {
      expect(isWeblate418Check(id)).toBe(true);
    }
    for (const id of ['end_interrobang', 'fluent-parts', 'rst-syntax', 'objc_format', 'laravel_format', 'source-max-length', 'max-lines', 'nonsense']) {
      expect(isWeblate418Check(id)).toBe(false);
    }
  });

  it('describes stored ids: evaluated checks fully, other Weblate ids by name, unknown ids by id', () => {
    expect(describeCheck('end_stop')).toEqual({ id: 'end_stop', name: 'Mismatched full stop', description: 'Source and translation do not both end with a full stop' });
    expect(describeCheck('kashida')).toEqual({ id: 'kashida', name: 'Kashida letter used', description: '' });
    expect(describeCheck('gone')).toEqual({ id: 'gone', name: 'gone', description: '' });
  });
});
