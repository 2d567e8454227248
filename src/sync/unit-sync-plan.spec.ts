import { JSON_NESTED_FILE_FORMAT } from '../formats/json-family/json.format';
import type { StoreUnit } from '../formats/store';
import { sourceDrafts, stateRules, templateStrings, translationDrafts as drafts, type TemplateString, type UnitDraft } from './unit-drafts';
import { planUnitSync, planUnitSyncInSlices, type StoredUnit } from './unit-sync-plan';

const parse = (json: string) => JSON_NESTED_FILE_FORMAT.parse(Buffer.from(json)).units;
const translationDrafts = (strings: TemplateString[], file: StoreUnit[]) => drafts(strings, file, stateRules('json-nested', true));

function stored(drafts: UnitDraft[], overrides: Record<string, Partial<StoredUnit>> = {}): StoredUnit[] {
  return drafts.map((draft, index) => ({
    id: String(index + 1),
    idHash: draft.idHash,
    context: draft.context,
    source: draft.source,
    target: draft.target,
    state: draft.fileState,
    previousSource: '',
    position: draft.position,
    contentHash: draft.contentHash,
    numWords: draft.numWords,
    numChars: draft.numChars,
    pending: false,
    note: draft.note,
    location: draft.location,
    flags: draft.flags,
    ...overrides[draft.context],
  }));
}

const TEMPLATE = '{"a":"Apple","b":"Banana","c":"Cherry"}';

describe('planUnitSync', () => {
  const strings = templateStrings(parse(TEMPLATE), 'en');

  it('inserts everything on the first scan, with no unit history', () => {
    const plan = planUnitSync([], translationDrafts(strings, parse('{"a":"Jablko"}')), false);
    expect(plan.inserts.map((row) => [row.context, row.target, row.state])).toEqual([
      ['a', 'Jablko', 20],
      ['b', '', 0],
      ['c', '', 0],
    ]);
    expect(plan.updates).toEqual([]);
    expect(plan.changes).toEqual([]);
  });

  it('does nothing when the file did not change', () => {
    const drafts = translationDrafts(strings, parse('{"a":"Jablko"}'));
    expect(planUnitSync(stored(drafts), drafts, false)).toEqual({ inserts: [], updates: [], deletes: [], changes: [] });
  });

  it('records 59 with the new text for a changed target and keeps the unit id', () => {
    const before = translationDrafts(strings, parse('{"a":"Jablko","b":"Banán"}'));
    const after = translationDrafts(strings, parse('{"a":"Jablíčko","b":""}'));
    const plan = planUnitSync(stored(before), after, false);
    expect(plan.updates.map((row) => [row.id, row.target, row.state])).toEqual([
      ['1', 'Jablíčko', 20],
      ['2', '', 0],
    ]);
    expect(plan.changes).toEqual([
      { action: 59, unitId: '1', target: 'Jablíčko', old: 'Jablko' },
      { action: 59, unitId: '2', target: '', old: 'Banán' },
    ]);
  });

  it('adds new template strings and deletes removed ones', () => {
    const before = translationDrafts(strings, parse('{}'));
    const changed = templateStrings(parse('{"a":"Apple","c":"Cherry","d":"Date"}'), 'en');
    const plan = planUnitSync(stored(before), translationDrafts(changed, parse('{}')), false);
    expect(plan.inserts.map((row) => row.context)).toEqual(['d']);
    expect(plan.deletes).toEqual(['2']);
    // c moved from position 3 to 2.
    expect(plan.updates.map((row) => [row.context, row.position])).toEqual([['c', 2]]);
    expect(plan.changes).toEqual([]);
  });

  it('fuzzies a translated unit whose source changed, keeping the old source (and 30), and reverts', () => {
    const before = translationDrafts(strings, parse('{"a":"Jablko"}'));
    const newTemplate = templateStrings(parse('{"a":"Green apple","b":"Banana","c":"Cherry"}'), 'en');
    const plan = planUnitSync(stored(before), translationDrafts(newTemplate, parse('{"a":"Jablko"}')), false);
    expect(plan.updates).toHaveLength(1);
    expect(plan.updates[0]).toMatchObject({ id: '1', source: 'Green apple', target: 'Jablko', state: 10, previousSource: 'Apple' });
    expect(plan.changes).toEqual([{ action: 30, unitId: '1', target: 'Green apple', old: 'Apple' }]);

    const fuzzy = stored(translationDrafts(newTemplate, parse('{"a":"Jablko"}')), { a: { state: 10, previousSource: 'Apple' } });
    const reverted = planUnitSync(fuzzy, translationDrafts(strings, parse('{"a":"Jablko"}')), false);
    expect(reverted.updates[0]).toMatchObject({ source: 'Apple', state: 20, previousSource: '' });
  });

  it('keeps fuzzy and approved states the file cannot express', () => {
    const drafts = translationDrafts(strings, parse('{"a":"Jablko","b":"Banán"}'));
    const plan = planUnitSync(stored(drafts, { a: { state: 10 }, b: { state: 30 } }), drafts, false);
    expect(plan.updates).toEqual([]);
  });

  it('leaves pending units (edited in Glossa, not committed) alone', () => {
    const before = translationDrafts(strings, parse('{"a":"Jablko"}'));
    const plan = planUnitSync(stored(before, { a: { target: 'Moje jablko', pending: true } }), translationDrafts(strings, parse('{"a":"Jiné"}')), false);
    expect(plan.updates).toEqual([]);
    expect(plan.changes).toEqual([]);
  });

  it('keeps source units read-only and records 59 when the template text changes', () => {
    const before = sourceDrafts(strings);
    const after = sourceDrafts(templateStrings(parse('{"a":"Green apple","b":"Banana","c":"Cherry"}'), 'en'));
    const plan = planUnitSync(stored(before), after, true);
    expect(plan.updates).toHaveLength(1);
    expect(plan.updates[0]).toMatchObject({ source: 'Green apple', target: 'Green apple', state: 100 });
    expect(plan.changes).toEqual([{ action: 59, unitId: '1', target: 'Green apple', old: 'Apple' }]);
  });

  it('plans the same in slices (the event loop runs between them) as in one piece', async () => {
    const before = translationDrafts(strings, parse('{"a":"Jablko","b":"Banán","c":"Třešeň"}'));
    const after = translationDrafts(templateStrings(parse('{"b":"Banana split","c":"Cherry","d":"Date"}'), 'en'), parse('{"b":"Banán","d":"Datle"}'));
    const rows = stored(before, { c: { state: 30 } });
    expect(await planUnitSyncInSlices(rows, after, false, 1)).toEqual(planUnitSync(rows, after, false));
  });
});
