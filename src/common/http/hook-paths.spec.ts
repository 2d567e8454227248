import { isHookPath } from './hook-paths';

describe('isHookPath', () => {
  it('recognises the service and update hooks, with or without the trailing slash', () => {
    for (const path of ['/hooks/github/', '/hooks/github', '/hooks/azure/', '/hooks/update/p/', '/hooks/update/p/c/', '/hooks/update/p/c']) {
      expect(isHookPath(path)).toBe(true);
    }
  });

  it('refuses other spellings and other paths', () => {
    for (const path of ['/HOOKS/github/', '/hooks/GitHub/', '//hooks/github/', '/hooks/github//', '/hooks/forgejo/', '/hooks/update/', '/hooks/update/p/c/x/', '/hooks/update//c/', '/api/hooks/github/']) {
      expect(isHookPath(path)).toBe(false);
    }
  });
});
