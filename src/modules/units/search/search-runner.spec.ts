import type { DataSource } from 'typeorm';
import { compileSearch } from './search-compiler';
import { OWN_TEXT_IDS_CAP } from './search-fields';
import { resolveSearch } from './search-runner';

/** A data source whose query() answers each own-text lookup with `found` ids, recording the statements. */
function fakeDb(found: number[]): { db: DataSource; statements: Array<{ sql: string; params: unknown[] }> } {
  const statements: Array<{ sql: string; params: unknown[] }> = [];
  let call = 0;
  const db = {
    query: async (sql: string, params: unknown[]) => {
      statements.push({ sql, params });
      const count = found[call++];
      return [{ found: count, ids: Array.from({ length: count }, (_, i) => String(i + 1)).join(',') }];
    },
  } as unknown as DataSource;
  return { db, statements };
}

describe('resolveSearch', () => {
  it('compiles each source/context term that found at most the cap again with those ids, continuing the base parameters', async () => {
    const params: unknown[] = [42];
    const search = compileSearch('source:lantern key:k34', params)!;
    const { db, statements } = fakeDb([2, OWN_TEXT_IDS_CAP + 1]);
    const resolved = await resolveSearch(db, search, [42], params);
    expect(statements.map((statement) => statement.params)).toEqual([['%lantern%'], ['%k34%']]);
    expect(statements.every((statement) => statement.sql.includes(`LIMIT ${OWN_TEXT_IDS_CAP + 1}`))).toBe(true);
    expect(resolved.params).toEqual([42, '%lantern%', '1,2', '%k34%']);
    expect(resolved.sql).toContain("u.source_unit_id = ANY(string_to_array($3::text, ',')::bigint[])");
    // The second term found more than the cap: it keeps its semi-join.
    expect(resolved.sql).toContain('sx.context ILIKE $4');
  });

  it('keeps the compiled condition when no term has its ids, and sends nothing without source/context terms', async () => {
    const params: unknown[] = [];
    const broad = compileSearch('source:benchmark', params)!;
    const many = fakeDb([OWN_TEXT_IDS_CAP + 1]);
    expect(await resolveSearch(many.db, broad, [], params)).toEqual({ sql: broad.sql, params });
    const other: unknown[] = [];
    const state = compileSearch('state:<translated', other)!;
    const none = fakeDb([]);
    expect(await resolveSearch(none.db, state, [], other)).toEqual({ sql: state.sql, params: other });
    expect(none.statements).toEqual([]);
  });
});
