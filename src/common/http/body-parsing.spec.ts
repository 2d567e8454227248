import { checkJsonDepth, MAX_JSON_DEPTH } from './body-parsing';

describe('checkJsonDepth', () => {
  it('accepts bodies up to the limit and refuses deeper ones as a parse failure', () => {
    expect(() => checkJsonDepth(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).not.toThrow();
    expect(() => checkJsonDepth(`${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`)).toThrow(
      expect.objectContaining({ status: 400, type: 'entity.parse.failed', message: `Nesting deeper than ${MAX_JSON_DEPTH} levels` }),
    );
    expect(() => checkJsonDepth('['.repeat(100_000))).toThrow(SyntaxError);
  });

  it('counts only structure: brackets inside strings, escaped quotes included, are text', () => {
    expect(() => checkJsonDepth(JSON.stringify({ a: '['.repeat(1000), b: '"\\"[[[[', c: ['{'.repeat(500)] }))).not.toThrow();
    expect(() => checkJsonDepth(`["\\\\", ${'['.repeat(3)}]]]]`, 3)).toThrow();
  });
});
