import { translationPercent } from './percent';

// Cases from weblate-api.md §11.2.
describe('translationPercent', () => {
  it.each<[number, number, number]>([
    [2, 3, 66.6],
    [1, 3, 33.3],
    [1, 6, 16.6],
    [5, 6, 83.3],
    [1, 10000, 0.1],
    [9999, 10000, 99.9],
    [0, 5, 0],
    [5, 5, 100],
    [1, 2, 50],
    [1, 1000, 0.1],
    [1, 2000, 0.1],
  ])('%i of %i is %d', (count, total, expected) => {
    expect(translationPercent(count, total, false)).toBe(expected);
  });

  it('an empty total is complete only for the "completed" metric', () => {
    expect(translationPercent(0, 0, true)).toBe(100);
    expect(translationPercent(0, 0, false)).toBe(0);
  });
});
