import { compileSearch } from './search-compiler';
import { registerUnitSearchField } from './search-fields';
import { SearchQueryError } from './search-parser';

const now = new Date('2024-05-15T13:45:00Z');
function compile(q: string, params: unknown[] = []): { sql: string | undefined; params: unknown[]; regex: boolean | undefined } {
  const compiled = compileSearch(q, params, now);
  return { sql: compiled?.sql, params, regex: compiled?.usesRegex };
}
function fails(q: string): string {
  try {
    compileSearch(q, [], now);
  } catch (error) {
    expect(error).toBeInstanceOf(SearchQueryError);
    return (error as Error).message;
  }
  throw new Error(`compiled: ${q}`);
}

/** What a source/context condition over `sx` compiles to (search-fields.ts unitsWithOwnOrSourceText), whitespace collapsed. */
const throughSource = (condition: string, extra?: string): string =>
  `u.id IN (SELECT sx.id FROM units sx WHERE (sx.source_unit_id IS NULL OR sx.source_unit_id = sx.id OR sx.source_differs) AND ${condition} ` +
  `UNION ALL SELECT dx.id FROM units sx JOIN units dx ON dx.source_unit_id = sx.id ` +
  `WHERE (sx.source_unit_id IS NULL OR sx.source_unit_id = sx.id OR sx.source_differs) AND dx.id <> sx.id AND NOT dx.source_differs AND ${condition}${extra ? ` UNION ALL ${extra}` : ''})`;
const squash = (sql: string | undefined): string | undefined => sql?.replace(/\s+/g, ' ');
/** The opening of an own-text lookup (search-fields.ts OwnTextLookup), squashed. */
const LOOKUP_HEAD = "SELECT count(*)::int AS found, COALESCE(string_agg(own.id::text, ','), '') AS ids FROM (SELECT sx.id FROM units sx WHERE";

describe('search compiler (checks-suggestions-search.md §7.2-§7.7)', () => {
  it('never puts user text in the SQL, and continues the caller numbering', () => {
    const q = `source:"'; DROP TABLE units; --" target:r"x'y" component:"a'b" language:"c'd" changed_by:"e'f"`;
    const { sql, params } = compile(q, [7]);
    expect(sql).not.toMatch(/DROP|x'y|a'b|c'd|e'f/);
    expect(params[0]).toBe(7);
    expect(sql).toContain('$2');
  });

  it('matches bare words as substrings of source, target or context, escaping LIKE wildcards', () => {
    const { sql, ...rest } = compile('50%_off');
    expect(squash(sql)).toBe(throughSource('(sx.source ILIKE $1 OR sx.context ILIKE $1)', 'SELECT ux.id FROM units ux WHERE ux.target ILIKE $1'));
    expect(rest).toEqual({ params: ['%50\\%\\_off%'], regex: false });
    expect(squash(compile('r"^a"').sql)).toBe(throughSource('(sx.source ~ $1 OR sx.context ~ $1)', 'SELECT ux.id FROM units ux WHERE ux.target ~ $1'));
  });

  it('compiles text lookups: substring, exact, regex, operators as text', () => {
    expect(squash(compile('source:=Save').sql)).toBe(throughSource('sx.source = $1'));
    expect(squash(compile('context:menu').sql)).toBe(throughSource('sx.context ILIKE $1'));
    expect(compile('target:<b>')).toMatchObject({ sql: 'u.target ILIKE $1', params: ['%<b>%'] });
    expect(compile('key:r"^app\\."')).toMatchObject({ params: ['^app\\.'], regex: true });
    expect(squash(compile('key:r"^app\\."').sql)).toBe(throughSource('sx.context ~ $1'));
  });

  it('compiles numbers, states, lists and ranges, and rejects bad values', () => {
    // State codes are inlined (a known integer 0..100): the statement keeps no parameter for them.
    expect(compile('state:>=translated')).toMatchObject({ sql: 'u.state >= 20', params: [] });
    expect(compile('state:[10 to 20]')).toMatchObject({ sql: 'u.state BETWEEN 10 AND 20', params: [] });
    expect(compile('state:0099')).toMatchObject({ sql: 'u.state = 99', params: [] });
    expect(compile('id:1,5,9')).toMatchObject({ sql: 'u.id = ANY($1::bigint[])', params: [[1, 5, 9]] });
    expect(compile('position:<3').sql).toBe('u.position < $1');
    expect(fails('state:bogus')).toBe('Unsupported state: bogus');
    // Names of Object.prototype are no states either (state codes are written into the SQL as literals).
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) expect(fails(`state:${name}`)).toBe(`Unsupported state: ${name}`);
    expect(fails('source_state:>=valueOf')).toBe('Unsupported state: valueOf');
    expect(fails('priority:high')).toBe('Could not parse numeric value: high');
    expect(fails('pending:maybe')).toBe('Could not parse boolean value: maybe');
    expect(fails('is:nothing')).toBe('Unsupported lookup for is: nothing');
    expect(fails('has:nothing')).toBe('Unsupported lookup for has: nothing');
    expect(fails('foo:bar')).toBe('Unknown search field: foo');
    expect(fails('changed:soon')).toBe('Could not parse timestamp: soon');
    expect(fails('change_action:dance')).toBe('Unknown change action: dance');
  });

  it('compiles dates: whole periods, from the start, up to the end', () => {
    expect(compile('added:2019')).toMatchObject({ sql: '(u.timestamp >= $1 AND u.timestamp < $2)', params: [new Date('2019-01-01Z'), new Date('2020-01-01Z')] });
    expect(compile('added:>2019-03-01')).toMatchObject({ sql: 'u.timestamp >= $1', params: [new Date('2019-03-01Z')] });
    expect(compile('added:<2019-03-01')).toMatchObject({ sql: 'u.timestamp < $1', params: [new Date('2019-03-02Z')] });
    expect(compile('added:>2019-03-01T10:00')).toMatchObject({ sql: 'u.timestamp > $1', params: [new Date('2019-03-01T10:00Z')] });
  });

  it('joins change filters of one AND group into one change event, and keeps OR branches apart', () => {
    const together = compile('changed:2024 changed_by:jane').sql as string;
    expect(together.match(/FROM changes ch/g)).toHaveLength(1);
    expect(together).toContain('cu.username');
    const apart = compile('changed:2024 OR changed_by:jane').sql as string;
    expect(apart.match(/FROM changes ch/g)).toHaveLength(2);
    expect(compile('change_action:marked-for-edit').params).toEqual([37]);
    expect(compile('change_action:"Marked for edit"').params).toEqual([37]);
  });

  it('compiles NOT, OR and parentheses', () => {
    expect(squash(compile('NOT (is:translated OR has:check) a').sql)).toBe(
      `(NOT ((u.state >= 20 OR u.has_failing_check)) AND ${throughSource('(sx.source ILIKE $1 OR sx.context ILIKE $1)', 'SELECT ux.id FROM units ux WHERE ux.target ILIKE $1')})`,
    );
  });

  it('reads the own-text units of source/context terms in statements of their own, and compiles again with their ids', () => {
    const params: unknown[] = [7];
    const compiled = compileSearch('source:lantern AND NOT key:"a.b" OR r"x"', params, now)!;
    expect(params).toEqual([7, '%lantern%', '%a.b%', 'x']);
    expect(compiled.ownTextLookups.map((lookup) => ({ sql: squash(lookup.sql), params: lookup.params }))).toEqual([
      { sql: `${LOOKUP_HEAD} (sx.source_unit_id IS NULL OR sx.source_unit_id = sx.id OR sx.source_differs) AND sx.source ILIKE $1 LIMIT 2001) own`, params: ['%lantern%'] },
      { sql: `${LOOKUP_HEAD} (sx.source_unit_id IS NULL OR sx.source_unit_id = sx.id OR sx.source_differs) AND sx.context ILIKE $1 LIMIT 2001) own`, params: ['%a.b%'] },
    ]);
    // The bare regular expression is not a source/context term: it keeps its semi-join.
    const again: unknown[] = [7];
    const sql = squash(compiled.withOwnTextIds(['1,101', null], again));
    // Not a single term: no statement of its own form.
    expect(compiled.ownTextUnion([7])).toBeNull();
    expect(again).toEqual([7, '%lantern%', '1,101', '%a.b%', 'x']);
    expect(sql).toBe(
      `(((((u.source_unit_id IS NULL OR u.source_unit_id = u.id OR u.source_differs) AND u.source ILIKE $2) ` +
        `OR (u.source_unit_id IS NOT NULL AND u.source_unit_id = ANY(string_to_array($3::text, ',')::bigint[]) AND u.id <> u.source_unit_id AND NOT u.source_differs)) ` +
        `AND NOT (${throughSource('sx.context ILIKE $4')})) OR ${throughSource('(sx.source ~ $5 OR sx.context ~ $5)', 'SELECT ux.id FROM units ux WHERE ux.target ~ $5')})`,
    );
    expect(compiled.usesRegex).toBe(true);
  });

  it('gives a query that is one source: term in pieces for one statement, its text hidden from the plan', () => {
    const params: unknown[] = [];
    const compiled = compileSearch('source:lantern', params)!;
    const again: unknown[] = [9];
    const union = compiled.ownTextUnion(again)!;
    expect(again).toEqual([9, '%lantern%']);
    // The text is one parameter, hidden from every plan (an initplan's output), in every piece.
    expect(union.own).toBe('(sx.source_unit_id IS NULL OR sx.source_unit_id = sx.id OR sx.source_differs) AND sx.source ILIKE (SELECT $2::text)');
    expect(union.linked('ids')).toBe('u.source_unit_id IS NOT NULL AND u.source_unit_id = ANY(ids) AND u.id <> u.source_unit_id AND NOT u.source_differs');
    expect(squash(union.whole)).toBe(squash(throughSource('sx.source ILIKE (SELECT $2::text)')));
    // The same term with its ids read first (a query of several terms) keeps its values in sight.
    expect(squash(compiled.withOwnTextIds(['1,101'], []))).toBe(
      `(((u.source_unit_id IS NULL OR u.source_unit_id = u.id OR u.source_differs) AND u.source ILIKE $1) ` +
        `OR (u.source_unit_id IS NOT NULL AND u.source_unit_id = ANY(string_to_array($2::text, ',')::bigint[]) AND u.id <> u.source_unit_id AND NOT u.source_differs))`,
    );
    // context: and key: are such terms too; a regular expression keeps its value in sight of the plan (it runs
    // unnamed, under its time limit).
    expect(compileSearch('key:k1', [])!.ownTextUnion([])!.own).toContain('sx.context ILIKE (SELECT $1::text)');
    const regex = compileSearch('source:r"^lan"', [])!;
    const regexUnion = regex.ownTextUnion([])!;
    expect(regexUnion.own).toContain('sx.source ~ $1::text');
    expect(regexUnion.whole).toContain('sx.source ~ $1::text');
    expect(regex.usesRegex).toBe(true);
    // Other one-term queries have no such form.
    expect(compileSearch('target:lantern', [])!.ownTextUnion([])).toBeNull();
    expect(compileSearch('NOT source:lantern', [])!.ownTextUnion([])).toBeNull();
  });

  it('answers nothing for features without data, through a registry other modules can replace', () => {
    expect(compile('check:same').sql).toBe('FALSE');
    expect(compile('suggestion:x OR comment:y').sql).toBe('(FALSE OR FALSE)');
    registerUnitSearchField('label', (term, context) => `EXISTS (SELECT 1 FROM labels WHERE name = ${context.param(term.value)})`);
    expect(compile('label:x').sql).toBe('EXISTS (SELECT 1 FROM labels WHERE name = $1)');
  });
});
