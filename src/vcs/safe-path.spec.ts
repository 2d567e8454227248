import { UnsafePathError, assertSafeRelativePath, isInside } from './safe-path';

describe('isInside', () => {
  it('compares whole path segments, not string prefixes (GHSA-ffgh-3jrf-8wvh)', () => {
    expect(isInside('/data/repo', '/data/repo')).toBe(true);
    expect(isInside('/data/repo', '/data/repo/a/b.json')).toBe(true);
    expect(isInside('/data/repo', '/data/repo/..data.json')).toBe(true);
    expect(isInside('/data/repo', '/data/repo_outside/x.json')).toBe(false);
    expect(isInside('/data/repo', '/data/repo2')).toBe(false);
    expect(isInside('/data/repo', '/data')).toBe(false);
  });
});

describe('assertSafeRelativePath', () => {
  it('normalises harmless relative paths', () => {
    expect(assertSafeRelativePath('translations/cs/app.json')).toBe('translations/cs/app.json');
    expect(assertSafeRelativePath('./translations//cs/app.json')).toBe('translations/cs/app.json');
  });

  it.each(['', '../x', 'a/../../x', 'a\\..\\x', '/etc/passwd', 'C:\\x', '.git/config', 'sub/.Git/HEAD', 'a\0b'])(
    'refuses %j',
    (unsafe) => {
      expect(() => assertSafeRelativePath(unsafe)).toThrow(UnsafePathError);
    },
  );
});
