import { type CachedCaller, TokenCache } from './token-cache';

function entry(id: number, permissions: string[] = []): CachedCaller {
  return { caller: { id, username: `user${id}`, isSuperuser: false }, globalPermissions: new Set(permissions) };
}

describe('TokenCache', () => {
  it('answers nothing until it hears invalidations', () => {
    const cache = new TokenCache();
    cache.store(cache.beginFill(), 'a', entry(1));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.listen();
    cache.store(cache.beginFill(), 'a', entry(1, ['project.add']));
    expect(cache.get('a')?.caller.id).toBe(1);
    expect(cache.get('a')?.globalPermissions.has('project.add')).toBe(true);
  });

  it('forgets everything on an invalidation', () => {
    const cache = new TokenCache();
    cache.listen();
    cache.store(cache.beginFill(), 'a', entry(1));
    cache.store(cache.beginFill(), 'b', entry(2));
    cache.invalidate();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('does not store a read that began before an invalidation', () => {
    const cache = new TokenCache();
    cache.listen();
    const ticket = cache.beginFill();
    // The revocation commits and its notification arrives while the read is on its way.
    cache.invalidate();
    cache.store(ticket, 'a', entry(1));
    expect(cache.get('a')).toBeUndefined();
    cache.store(cache.beginFill(), 'a', entry(1));
    expect(cache.get('a')).toBeDefined();
  });

  it('is emptied and off while the listener is lost, and starts empty when it is back', () => {
    const cache = new TokenCache();
    cache.listen();
    cache.store(cache.beginFill(), 'a', entry(1));
    const ticket = cache.beginFill();
    cache.deafen();
    expect(cache.active).toBe(false);
    expect(cache.get('a')).toBeUndefined();
    cache.store(cache.beginFill(), 'a', entry(1));
    cache.listen();
    expect(cache.get('a')).toBeUndefined();
    // A read that began before the connection was back may have missed a change: not stored.
    cache.store(ticket, 'a', entry(1));
    expect(cache.get('a')).toBeUndefined();
  });

  it('keeps at most `capacity` entries, dropping the least recently used', () => {
    const cache = new TokenCache(2);
    cache.listen();
    cache.store(cache.beginFill(), 'a', entry(1));
    cache.store(cache.beginFill(), 'b', entry(2));
    expect(cache.get('a')).toBeDefined();
    cache.store(cache.beginFill(), 'c', entry(3));
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.caller.id).toBe(1);
    expect(cache.get('c')?.caller.id).toBe(3);
  });
});
