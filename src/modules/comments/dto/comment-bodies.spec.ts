import { ApiValidationError } from '../../../common/http/api-errors';
import { parseNewComment } from './comment-bodies';

function fieldErrors(body: unknown): unknown {
  try {
    parseNewComment(body);
  } catch (error) {
    if (error instanceof ApiValidationError) return error.fields;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('comment bodies', () => {
  it('reads scope, comment and the admin-only fields', () => {
    expect(parseNewComment({ scope: 'global', comment: 'Hi', extra: 1 })).toEqual({ scope: 'global', comment: 'Hi' });
    expect(parseNewComment({ scope: 'translation', comment: 'Hi', timestamp: '2024-01-02 03:04', user_email: 'a@b.cz' })).toEqual({
      scope: 'translation',
      comment: 'Hi',
      timestamp: '2024-01-02 03:04',
      userEmail: 'a@b.cz',
    });
  });

  it('answers every bad field with one DRF message', () => {
    expect(fieldErrors({})).toEqual({ scope: ['This field is required.'], comment: ['This field is required.'] });
    expect(fieldErrors({ scope: 'all', comment: '  ' })).toEqual({ scope: ['"all" is not a valid choice.'], comment: ['This field may not be blank.'] });
    expect(fieldErrors({ scope: 'global', comment: 'x'.repeat(1001) })).toEqual({ comment: ['Ensure this field has no more than 1000 characters.'] });
    expect(fieldErrors({ scope: 'global', comment: 'x', timestamp: '2024-13-45T99:00' })).toEqual({
      timestamp: ['Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].'],
    });
    expect(fieldErrors({ scope: 'global', comment: 'x', user_email: 'nobody' })).toEqual({ user_email: ['Enter a valid email address.'] });
    expect(fieldErrors('text')).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] });
  });
});
