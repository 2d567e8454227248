import { HttpException } from '@nestjs/common';
import { parseBulkEditBody, parseBulkTranslateBody } from './bulk-bodies';

const errorOf = (work: () => unknown): unknown => {
  try {
    work();
  } catch (error) {
    return (error as HttpException).getResponse();
  }
  throw new Error('expected a validation error');
};

describe('parseBulkTranslateBody', () => {
  it('reads each item on its own: a bad item is that item\'s error, the others parse', () => {
    const parsed = parseBulkTranslateBody(
      {
        items: [
          { id: '12', target: 'One form', state: '20' },
          { context: 'menu.file', target: ['a'], state: 10, if_match: '"abc"' },
          { id: 3, context: 'x', target: ['a'], state: 20 },
          { id: -1, target: ['a'], state: 20 },
          [1],
        ],
      },
      10,
    );
    expect(parsed.atomic).toBe(false);
    expect(parsed.items[0]).toEqual({ index: 0, ok: true, id: '12', context: null, edit: { target: ['One form'], state: 20 }, ifMatch: null });
    expect(parsed.items[1]).toEqual({ index: 1, ok: true, id: null, context: 'menu.file', edit: { target: ['a'], state: 10 }, ifMatch: '"abc"' });
    const failures = parsed.items.slice(2).map((item) => (item.ok ? null : item.error.getResponse()));
    expect(failures).toEqual([
      { non_field_errors: ['Give either id or context, not both.'] },
      { id: ['Ensure this value is greater than or equal to 1.'] },
      { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] },
    ]);
  });

  it('bounds the request: a list of 1..max items, atomic a boolean', () => {
    expect(errorOf(() => parseBulkTranslateBody({ items: [{}, {}, {}] }, 2))).toEqual({ items: ['Ensure this field has no more than 2 elements.'] });
    expect(errorOf(() => parseBulkTranslateBody({ items: [{}], atomic: 'maybe' }, 2))).toEqual({ atomic: ['Must be a valid boolean.'] });
    expect(parseBulkTranslateBody({ items: [{}], atomic: 'true' }, 2).atomic).toBe(true);
  });
});

describe('parseBulkEditBody', () => {
  it('defaults to leaving the state and changing no flags', () => {
    const none = { addLabels: [], removeLabels: [] };
    expect(parseBulkEditBody({ q: 'state:translated' })).toEqual({ q: 'state:translated', state: -1, addFlags: '', removeFlags: '', ...none });
    expect(parseBulkEditBody({ q: 'x', state: '30', add_flags: 'read-only', remove_flags: '' })).toEqual({ q: 'x', state: 30, addFlags: 'read-only', removeFlags: '', ...none });
  });

  it('reads label ids as Django’s ModelMultipleChoiceField does: integers or their text, once each', () => {
    expect(parseBulkEditBody({ q: 'x', add_labels: [3, '4', ' 3 '], remove_labels: [] })).toMatchObject({ addLabels: [3, 4], removeLabels: [] });
  });

  it('refuses a blank query, unknown states, oversized flags and values that are not label ids', () => {
    expect(errorOf(() => parseBulkEditBody({ q: ' ' }))).toEqual({ q: ['This field may not be blank.'] });
    expect(errorOf(() => parseBulkEditBody({ q: 'x', state: 0 }))).toEqual({ state: ['"0" is not a valid choice.'] });
    expect(errorOf(() => parseBulkEditBody({ q: 'x', add_flags: 'a'.repeat(10_001) }))).toEqual({ add_flags: ['Ensure this field has no more than 10000 characters.'] });
    expect(errorOf(() => parseBulkEditBody({ q: 'x', remove_labels: ['Old'] }))).toEqual({ remove_labels: ['“Old” is not a valid value.'] });
    expect(errorOf(() => parseBulkEditBody({ q: 'x', add_labels: 'Old' }))).toEqual({ add_labels: ['Expected a list of items but got type "str".'] });
  });
});
