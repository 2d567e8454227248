import { failureLine } from './component-alerts';

describe('failureLine', () => {
  it('reads the line a parser message starts with (FileFormat.parse: `line N: problem`)', () => {
    expect(failureLine('line 4: invalid JSON: expected a value, found "}" (column 1)')).toBe(4);
    expect(failureLine('line 12, column 3: unexpected token')).toBe(12);
    expect(failureLine('the file has 9 bytes, more than the limit of 8 (MAX_FILE_BYTES)')).toBeNull();
    expect(failureLine('a line 3 later in the text')).toBeNull();
  });
});
