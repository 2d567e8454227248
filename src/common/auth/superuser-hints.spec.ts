import { SuperuserHints } from './superuser-hints';

describe('SuperuserHints', () => {
  it('remembers a token whose last statement showed a superuser, and forgets it when one did not', () => {
    const hints = new SuperuserHints();
    expect(hints.has('a')).toBe(false);
    hints.learn('a', true);
    hints.learn('b', false);
    expect(hints.has('a')).toBe(true);
    expect(hints.has('b')).toBe(false);
    hints.learn('a', false);
    expect(hints.has('a')).toBe(false);
  });

  it('stays bounded: it starts over when full', () => {
    const hints = new SuperuserHints();
    for (let i = 0; i < 10_000; i += 1) hints.learn(`t${i}`, true);
    expect(hints.has('t0')).toBe(true);
    hints.learn('one more', true);
    expect(hints.has('t0')).toBe(false);
    expect(hints.has('one more')).toBe(true);
  });
});
