import { actionName, isKnownAction, knownActions } from './change-actions';

describe('change actions (weblate-api.md §8.1)', () => {
  it('names the two codes the spec observed exactly', () => {
    expect(actionName(0)).toBe('Resource update');
    expect(actionName(59)).toBe('String updated in the repository');
  });

  it('uses the 4.x wording where it differs from later releases', () => {
    expect(actionName(5)).toBe('New translation');
    expect(actionName(25)).toBe('Removed translation');
    expect(actionName(31)).toBe('New string added');
    expect(actionName(57)).toBe('Screnshot added');
    expect(actionName(63)).toBe('Removed string');
  });

  it('keeps later names for codes 4.x does not have', () => {
    expect(actionName(71)).toBe('String added in the repository');
    expect(actionName(104)).toBe('Alert reopened');
  });

  it('covers every code from 0 to 104 except the retired ones', () => {
    const retired = [10, 11, 12, 16, 40];
    const expected = Array.from({ length: 105 }, (_, code) => code).filter((code) => !retired.includes(code));
    expect(knownActions()).toEqual(expected);
    for (const code of retired) expect(isKnownAction(code)).toBe(false);
    expect(isKnownAction(999)).toBe(false);
    expect(actionName(999)).toBe('999');
  });
});
