import { ApiValidationError } from '../../common/http/api-errors';
import { parseChangeFilters, parseIsoDateTime } from './change-filters';

function errorsOf(query: Record<string, unknown>): unknown {
  try {
    parseChangeFilters(query);
  } catch (error) {
    if (error instanceof ApiValidationError) return error.fields;
    throw error;
  }
  return null;
}

describe('change filters (weblate-api.md §7.2)', () => {
  it('reads user, repeated actions and both timestamp bounds', () => {
    expect(parseChangeFilters({})).toEqual({});
    expect(parseChangeFilters({ user: 'admin', action: ['2', '5', '2'], timestamp_after: '2024-01-02', timestamp_before: '2024-01-02T10:11:12.5Z' })).toEqual({
      username: 'admin',
      actions: [2, 5],
      after: '2024-01-02T00:00:00.000000Z',
      before: '2024-01-02T10:11:12.500000Z',
    });
  });

  it('ignores empty values like django-filter', () => {
    expect(parseChangeFilters({ user: '', action: '', timestamp_after: '' })).toEqual({});
  });

  it('rejects unknown action codes with the ChoiceField message on `action`', () => {
    expect(errorsOf({ action: '999' })).toEqual({ action: ['Select a valid choice. 999 is not one of the available choices.'] });
    expect(errorsOf({ action: ['0', 'abc'] })).toEqual({ action: ['Select a valid choice. abc is not one of the available choices.'] });
    expect(errorsOf({ action: '10' })).toEqual({ action: ['Select a valid choice. 10 is not one of the available choices.'] });
  });

  it('rejects invalid timestamps on `timestamp`', () => {
    expect(errorsOf({ timestamp_after: 'yesterday' })).toEqual({ timestamp: ['Enter a valid date/time.'] });
    expect(errorsOf({ timestamp_before: '2024-02-30' })).toEqual({ timestamp: ['Enter a valid date/time.'] });
  });

  it('parses ISO 8601 variants Django accepts', () => {
    expect(parseIsoDateTime('2024-05-03 10:11')).toBe('2024-05-03T10:11:00.000000Z');
    expect(parseIsoDateTime('2024-05-03T10:11:12+02:00')).toBe('2024-05-03T10:11:12.000000+02:00');
    expect(parseIsoDateTime('2024-05-03T10:11:12.1234567-0130')).toBe('2024-05-03T10:11:12.123456-01:30');
    expect(parseIsoDateTime('2024-13-01')).toBeNull();
    expect(parseIsoDateTime('2024-05-03T25:00')).toBeNull();
  });
});
