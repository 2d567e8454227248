import { OneDecimal, serializeJson } from './json-writer';

describe('serializeJson', () => {
  it('writes compact JSON in insertion order', () => {
    expect(serializeJson({ b: 1, a: [true, null, 'x'] })).toBe('{"b":1,"a":[true,null,"x"]}');
  });

  it('writes bigints as exact integers', () => {
    expect(serializeJson({ id_hash: -6306725157533644379n })).toBe('{"id_hash":-6306725157533644379}');
  });

  it('keeps one decimal for percentages', () => {
    expect(serializeJson([new OneDecimal(100), new OneDecimal(66.6), new OneDecimal(0)])).toBe('[100.0,66.6,0.0]');
  });

  it('leaves UTF-8 unescaped and skips undefined fields', () => {
    expect(serializeJson({ t: 'Zpráva – čas', u: undefined })).toBe('{"t":"Zpráva – čas"}');
  });
});
