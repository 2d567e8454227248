import { compileSafeRegex, MAX_PATTERN_LENGTH, UnsafeRegexError } from './safe-regex';

describe('compileSafeRegex', () => {
  it.each(['^[A-Z]+$', '\\{[a-z]+\\}', '(abc)?def', '^\\p{L}+$', 'a{2,5}b', '(?:x)+'])('accepts %s', (pattern) => {
    expect(compileSafeRegex(pattern)).toBeInstanceOf(RegExp);
  });

  it.each(['(a+)+$', '(a|aa)*', '((ab)*)+', '(x+){2,}', '(a)\\1', '(?<n>a)\\k<n>', 'x'.repeat(MAX_PATTERN_LENGTH + 1), 'a*b*c*d*e*f*g*h*i*j*k*', '[', '(?<'])(
    'rejects %s',
    (pattern) => {
      expect(() => compileSafeRegex(pattern)).toThrow(UnsafeRegexError);
    },
  );
});
