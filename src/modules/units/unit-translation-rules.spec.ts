import { HttpException } from '@nestjs/common';
import { PLURAL_SEPARATOR } from '../../common/text/word-count';
import { translationEditError } from './unit-translation-rules';

const answer = (error: HttpException | null) => (error === null ? null : [error.getStatus(), error.getResponse()]);
const unit = { source: 'Hello', state: 20, plural_number: 3 };
const may = { edit: true, review: false };

describe('translationEditError', () => {
  it('allows a plain edit', () => {
    expect(translationEditError(unit, { target: ['Ahoj'], state: 20 }, may)).toBeNull();
    expect(translationEditError(unit, { target: [''], state: 0 }, may)).toBeNull();
  });

  it('applies Weblate\'s checks in order: plural forms, read-only, the body, unit.edit, review', () => {
    const plural = { ...unit, source: `One${PLURAL_SEPARATOR}Many` };
    expect(answer(translationEditError({ ...plural, state: 100 }, { target: ['a'], state: 20 }, { edit: false, review: false }))).toEqual([400, { target: ['Number of plurals does not match'] }]);
    expect(translationEditError(plural, { target: ['a', 'b', 'c'], state: 20 }, may)).toBeNull();
    expect(answer(translationEditError({ ...unit, state: 100 }, { target: ['a'], state: 0 }, may))).toEqual([403, { detail: 'The string is read-only.' }]);
    expect(answer(translationEditError(unit, { target: ['a'] }, { edit: false, review: false }))).toEqual([400, { detail: 'Please provide both state and target for a partial update' }]);
    expect(answer(translationEditError(unit, { target: ['a'], state: 20 }, { edit: false, review: false }))).toEqual([403, { detail: 'You do not have permission to perform this action.' }]);
    expect(answer(translationEditError(unit, { target: ['a'], state: 30 }, may))).toEqual([403, { detail: 'Insufficient privileges for approving.' }]);
    expect(answer(translationEditError({ ...unit, state: 30 }, { target: ['a'], state: 20 }, may))).toEqual([403, { detail: 'Insufficient privileges for approving.' }]);
    expect(translationEditError({ ...unit, state: 30 }, { target: ['a'], state: 20 }, { edit: true, review: true })).toBeNull();
  });
});
