import { parseSearchDate } from './search-dates';
import { parseSearchQuery, SEARCH_LIMITS, SearchQueryError, type SearchNode } from './search-parser';

const word = (text: string, quoted = false): SearchNode => ({ type: 'term', field: null, operator: ':', value: { kind: 'text', text, quoted } });
const field = (name: string, operator: string, text: string): SearchNode => ({ type: 'term', field: name, operator, value: { kind: 'text', text, quoted: false } }) as SearchNode;

function fails(q: string): string {
  try {
    parseSearchQuery(q);
  } catch (error) {
    expect(error).toBeInstanceOf(SearchQueryError);
    return (error as Error).message;
  }
  throw new Error(`parsed: ${q}`);
}

describe('search language parser (checks-suggestions-search.md §7.1)', () => {
  it('answers null for an empty query', () => {
    expect(parseSearchQuery('')).toBeNull();
    expect(parseSearchQuery('  \t')).toBeNull();
  });

  it('ANDs juxtaposed terms before OR (5.10.2+), NOT binds tightest, keywords are case-insensitive', () => {
    expect(parseSearchQuery('a b OR c')).toEqual({ type: 'or', children: [{ type: 'and', children: [word('a'), word('b')] }, word('c')] });
    expect(parseSearchQuery('a and not b or c')).toEqual({
      type: 'or',
      children: [{ type: 'and', children: [word('a'), { type: 'not', child: word('b') }] }, word('c')],
    });
    expect(parseSearchQuery('NOT (a OR b)')).toEqual({ type: 'not', child: { type: 'or', children: [word('a'), word('b')] } });
    expect(parseSearchQuery('(state:translated)')).toEqual(field('state', ':', 'translated'));
  });

  it('reads quoted phrases, fields with every operator, regexes and ranges', () => {
    expect(parseSearchQuery(`"hello world" 'it''s'`)).toEqual({ type: 'and', children: [word('hello world', true), word('it', true), word('s', true)] });
    for (const operator of [':', ':=', ':>', ':>=', ':<', ':<=']) expect(parseSearchQuery(`Source${operator}x`)).toEqual(field('source', operator, 'x'));
    expect(parseSearchQuery('source:r"^[A-Z]+ \\"x\\"$"')).toEqual({ type: 'term', field: 'source', operator: ':', value: { kind: 'regex', pattern: '^[A-Z]+ \\"x\\"$' } });
    expect(parseSearchQuery("r'ab+'")).toEqual({ type: 'term', field: null, operator: ':', value: { kind: 'regex', pattern: 'ab+' } });
    expect(parseSearchQuery('changed:[20_days_ago to yesterday]')).toEqual({ type: 'term', field: 'changed', operator: ':', value: { kind: 'range', from: '20_days_ago', to: 'yesterday' } });
    expect(parseSearchQuery('target:"a b"')).toEqual({ type: 'term', field: 'target', operator: ':', value: { kind: 'text', text: 'a b', quoted: true } });
  });

  it('keeps URLs as bare words and strips closing parentheses from the edge of a word', () => {
    expect(parseSearchQuery('https://example.com/x')).toEqual(word('https://example.com/x'));
    expect(parseSearchQuery('(a (b))')).toEqual({ type: 'and', children: [word('a'), word('b')] });
    expect(parseSearchQuery('f(x)y')).toEqual(word('f(x)y'));
  });

  it("reports Weblate's errors", () => {
    expect(fails('a\0b')).toBe('Invalid character in the query string');
    expect(fails('(a OR b')).toBe('Failed to parse the query string: unbalanced parenthesis at position 1');
    expect(fails('a)')).toBe('Failed to parse the query string: unbalanced parenthesis at position 2');
    expect(fails('"open')).toBe('Failed to parse the query string: unterminated quoted string at position 1');
    expect(fails('source:r"open')).toBe('Failed to parse the query string: unterminated regular expression at position 8');
    expect(fails('a OR')).toBe('Failed to parse the query string: unexpected end of the query');
    expect(fails('OR a')).toBe('Failed to parse the query string: unexpected OR at position 1');
    expect(fails('source:')).toBe('Failed to parse the query string: expected a value after "source:" at position 8');
  });

  it('bounds length, nesting, term count and regex length', () => {
    expect(fails('a'.repeat(SEARCH_LIMITS.queryLength + 1))).toBe('Search query is too complex.');
    expect(parseSearchQuery('a'.repeat(SEARCH_LIMITS.queryLength))).toEqual(word('a'.repeat(SEARCH_LIMITS.queryLength)));
    expect(fails(`${'('.repeat(SEARCH_LIMITS.depth + 1)}a${')'.repeat(SEARCH_LIMITS.depth + 1)}`)).toBe('Search query is too complex.');
    expect(parseSearchQuery(`${'('.repeat(SEARCH_LIMITS.depth)}a${')'.repeat(SEARCH_LIMITS.depth)}`)).toEqual(word('a'));
    expect(fails('NOT '.repeat(SEARCH_LIMITS.depth + 1) + 'a')).toBe('Search query is too complex.');
    expect(fails(Array.from({ length: SEARCH_LIMITS.terms + 1 }, () => 'a').join(' '))).toBe('Search query is too complex.');
    expect(fails(`source:r"${'a'.repeat(SEARCH_LIMITS.regexLength + 1)}"`)).toBe(`Invalid regular expression: longer than ${SEARCH_LIMITS.regexLength} characters`);
  });
});

describe('search dates (§7.3)', () => {
  const now = new Date('2024-05-15T13:45:00Z');
  const period = (value: string): [string, string, boolean] => {
    const p = parseSearchDate(value, now);
    return [p.start.toISOString(), p.end.toISOString(), p.instant];
  };

  it('reads years, months, days, instants and free forms', () => {
    expect(period('2019')).toEqual(['2019-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z', false]);
    expect(period('2019-12')).toEqual(['2019-12-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z', false]);
    expect(period('2019-03-01')).toEqual(['2019-03-01T00:00:00.000Z', '2019-03-02T00:00:00.000Z', false]);
    expect(period('2019-03-01T10:00')).toEqual(['2019-03-01T10:00:00.000Z', '2019-03-01T10:00:00.001Z', true]);
    expect(period('2019-03-01T10:00:00+02:00')[0]).toBe('2019-03-01T08:00:00.000Z');
    expect(period('March 1, 2019')).toEqual(period('2019-03-01'));
    expect(period('1 mar 2019')).toEqual(period('2019-03-01'));
  });

  it('reads relative phrases from today midnight', () => {
    expect(period('today')).toEqual(['2024-05-15T00:00:00.000Z', '2024-05-16T00:00:00.000Z', false]);
    expect(period('yesterday')).toEqual(['2024-05-14T00:00:00.000Z', '2024-05-15T00:00:00.000Z', false]);
    expect(period('20_days_ago')[0]).toBe('2024-04-25T00:00:00.000Z');
    expect(period('2 weeks ago')[0]).toBe('2024-05-01T00:00:00.000Z');
    expect(period('last month')[0]).toBe('2024-04-15T00:00:00.000Z');
    expect(period('3 hours ago')).toEqual(['2024-05-15T10:45:00.000Z', '2024-05-15T10:45:00.001Z', true]);
  });

  it('rejects anything else', () => {
    for (const value of ['2019-02-30', '2019-13', 'soon', '2019-03-01T25:00', '12345']) {
      expect(() => parseSearchDate(value, now)).toThrow(new SearchQueryError(`Could not parse timestamp: ${value}`));
    }
  });
});
