import { Flags } from '../../checks/flags';
import { editFlags } from './flag-edit';

describe('editFlags', () => {
  it('adds flags after the existing ones and leaves an unchanged set alone', () => {
    expect(editFlags('', 'read-only', '')).toBe('read-only');
    expect(editFlags('max-length:10', 'read-only, ignore-same', '')).toBe('max-length:10, read-only, ignore-same');
    expect(editFlags('read-only', 'read-only', '')).toBeNull();
    expect(editFlags('max-length:10', '', 'read-only')).toBeNull();
  });

  it('replaces the parameters of a flag added again and removes a flag whatever its parameters', () => {
    expect(editFlags('max-length:10, read-only', 'max-length:20', '')).toBe('max-length:20, read-only');
    expect(editFlags('max-length:10, read-only', '', 'max-length')).toBe('read-only');
    expect(editFlags('read-only', 'ignore-same', 'read-only')).toBe('ignore-same');
  });

  it('writes parameters back so that the flag parser reads the same values', () => {
    const written = editFlags('', 'placeholders:"a, b":r"\\d+", font-family:"Droid Sans"', '')!;
    const flags = Flags.merge(written);
    expect(flags.params('placeholders')).toEqual([{ value: 'a, b', regex: false }, { value: '\\d+', regex: true }]);
    expect(flags.params('font-family')).toEqual([{ value: 'Droid Sans', regex: false }]);
  });

  it('keeps each discard item apart', () => {
    expect(editFlags('discard:max-length', 'discard:read-only', '')).toBe('discard:max-length, discard:read-only');
  });
});
