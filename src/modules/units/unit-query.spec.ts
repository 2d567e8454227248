import { compileUnitQuery, UnitQueryError } from './unit-query';

function compile(q: string, params: unknown[] = []): { sql: string | null; params: unknown[] } {
  return { sql: compileUnitQuery(q, params), params };
}

describe('unit search subset (weblate-api.md §7.1)', () => {
  it('is empty for blank queries', () => {
    expect(compile('').sql).toBeNull();
    expect(compile('   ').sql).toBeNull();
  });

  it('matches bare words and phrases against source, target and context, escaping LIKE wildcards', () => {
    expect(compile('hello "big world" 50%_off')).toEqual({
      sql:
        '(u.source ILIKE $1 OR u.target ILIKE $1 OR u.context ILIKE $1) AND ' +
        '(u.source ILIKE $2 OR u.target ILIKE $2 OR u.context ILIKE $2) AND ' +
        '(u.source ILIKE $3 OR u.target ILIKE $3 OR u.context ILIKE $3)',
      params: ['%hello%', '%big world%', '%50\\%\\_off%'],
    });
  });

  it('continues the caller parameter numbering', () => {
    expect(compile('key:app.title', [7])).toEqual({ sql: 'u.context ILIKE $2', params: [7, '%app.title%'] });
  });

  it('supports field lookups, exact matches, states with operators, numbers, is: and has:', () => {
    expect(compile('source:="Save file" AND target:Uložit').sql).toBe('u.source = $1 AND u.target ILIKE $2');
    expect(compile("context:'a b'").params).toEqual(['%a b%']);
    expect(compile('state:>=translated state:empty').sql).toBe('u.state >= $1 AND u.state = $2');
    expect(compile('state:>=translated').params).toEqual([20]);
    expect(compile('position:<3').sql).toBe('u.position < $1');
    expect(compile('is:translated is:untranslated is:fuzzy is:approved is:read-only').sql).toBe(
      'u.state >= 20 AND u.state < 20 AND u.state BETWEEN 10 AND 12 AND u.state = 30 AND u.state = 100',
    );
    expect(compile('has:suggestion has:comment has:check').sql).toBe('u.has_suggestion AND u.has_comment AND u.has_failing_check');
  });

  it('rejects what it does not implement', () => {
    for (const q of ['a OR b', 'NOT a', '(a)', 'source:r".*"', 'foo:bar', 'state:bogus', 'is:nothing', 'has:>check', 'position:x', 'source:', 'source:>a', '"open']) {
      expect(() => compile(q)).toThrow(UnitQueryError);
    }
  });
});
