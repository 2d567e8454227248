import { convertDrfValue, drfFieldError, lastQueryValue } from './drf-fields';

describe('DRF field rules', () => {
  it('converts form strings the way DRF fields do, leaving unconvertible values alone', () => {
    expect(convertDrfValue({ type: 'integer' }, '42')).toBe(42);
    expect(convertDrfValue({ type: 'integer' }, '4.2')).toBe('4.2');
    expect(convertDrfValue({ type: 'boolean' }, 'true')).toBe(true);
    expect(convertDrfValue({ type: 'boolean' }, '0')).toBe(false);
    expect(convertDrfValue({ type: 'boolean' }, 'maybe')).toBe('maybe');
    expect(convertDrfValue({ type: 'choice', choices: [0, 10, 20] }, '10')).toBe(10);
    expect(convertDrfValue({ type: 'choice', choices: [0, 10, 20] }, '11')).toBe('11');
    expect(convertDrfValue({ type: 'string' }, 7)).toBe('7');
  });

  it("reports one DRF message per invalid value", () => {
    expect(drfFieldError({ type: 'string', required: true }, undefined)).toBe('This field is required.');
    expect(drfFieldError({ type: 'string' }, undefined)).toBeNull();
    expect(drfFieldError({ type: 'string' }, null)).toBe('This field may not be null.');
    expect(drfFieldError({ type: 'string' }, '  ')).toBe('This field may not be blank.');
    expect(drfFieldError({ type: 'string', allowBlank: true }, '')).toBeNull();
    expect(drfFieldError({ type: 'string' }, true)).toBe('Not a valid string.');
    expect(drfFieldError({ type: 'string', maxLength: 3 }, 'abcd')).toBe('Ensure this field has no more than 3 characters.');
    expect(drfFieldError({ type: 'string', check: () => 'Custom.' }, 'x')).toBe('Custom.');
    expect(drfFieldError({ type: 'integer' }, 'x')).toBe('A valid integer is required.');
    expect(drfFieldError({ type: 'integer', min: 1 }, 0)).toBe('Ensure this value is greater than or equal to 1.');
    expect(drfFieldError({ type: 'integer', max: 5 }, 6)).toBe('Ensure this value is less than or equal to 5.');
    expect(drfFieldError({ type: 'boolean' }, 'x')).toBe('Must be a valid boolean.');
    expect(drfFieldError({ type: 'choice', choices: ['a'] }, 'b')).toBe('"b" is not a valid choice.');
    expect(drfFieldError({ type: 'object', required: true }, undefined)).toBe('This field is required.');
  });

  it('takes the last value of a repeated query parameter', () => {
    expect(lastQueryValue(['a', 'b'])).toBe('b');
    expect(lastQueryValue('a')).toBe('a');
    expect(lastQueryValue({ nested: 'x' })).toBeUndefined();
  });
});
