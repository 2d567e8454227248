import { ApiValidationError } from '../../../common/http/api-errors';
import { maxTargetLength } from '../suggestion-store';
import { parseAcceptSuggestion, parseDeleteSuggestion, parseNewSuggestion, parseVote } from './suggestion-bodies';

function fieldErrors(parse: () => unknown): unknown {
  try {
    parse();
  } catch (error) {
    if (error instanceof ApiValidationError) return error.fields;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('suggestion bodies', () => {
  it('reads target as a list of strings with DRF messages', () => {
    expect(parseNewSuggestion({ target: ['a', ''] })).toEqual(['a', '']);
    expect(fieldErrors(() => parseNewSuggestion({}))).toEqual({ target: ['This field is required.'] });
    expect(fieldErrors(() => parseNewSuggestion({ target: 'a' }))).toEqual({ target: ['Expected a list of items but got type "str".'] });
    expect(parseNewSuggestion({ target: [1] })).toEqual(['1']);
    expect(fieldErrors(() => parseNewSuggestion({ target: [true] }))).toEqual({ target: ['Not a valid string.'] });
    expect(fieldErrors(() => parseNewSuggestion({ target: Array(11).fill('x') }))).toEqual({ target: ['Ensure this field has no more than 10 elements.'] });
    expect(fieldErrors(() => parseNewSuggestion(['a']))).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
  });

  it('accept, vote and delete bodies', () => {
    expect(parseAcceptSuggestion(undefined)).toEqual({ approve: false });
    expect(parseAcceptSuggestion({ approve: 'true' })).toEqual({ approve: true });
    expect(fieldErrors(() => parseAcceptSuggestion({ approve: 'maybe' }))).toEqual({ approve: ['Must be a valid boolean.'] });
    expect(parseVote({ value: -1 })).toBe(-1);
    expect(parseVote({ value: '1' })).toBe(1);
    expect(fieldErrors(() => parseVote({ value: 0 }))).toEqual({ value: ['"0" is not a valid choice.'] });
    expect(fieldErrors(() => parseVote({}))).toEqual({ value: ['This field is required.'] });
    expect(parseDeleteSuggestion({})).toEqual({ rejectionReason: '', isSpam: false });
    expect(parseDeleteSuggestion({ rejection_reason: 'dup', is_spam: true })).toEqual({ rejectionReason: 'dup', isSpam: true });
    expect(fieldErrors(() => parseDeleteSuggestion({ rejection_reason: ['x'] }))).toEqual({ rejection_reason: ['Not a valid string.'] });
  });

  it('limits a translation to ten times its source, at least 100 characters', () => {
    expect(maxTargetLength('Hi')).toBe(100);
    expect(maxTargetLength('x'.repeat(30))).toBe(300);
    // The first plural form counts, by code points.
    expect(maxTargetLength(`${'😀'.repeat(20)}\x1e\x1e${'y'.repeat(90)}`)).toBe(200);
  });
});
