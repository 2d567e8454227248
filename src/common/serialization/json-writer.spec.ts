import { exactInteger, OneDecimal, serializeJson } from './json-writer';

describe('serializeJson', () => {
  it('writes compact JSON in insertion order', () => {
    expect(serializeJson({ b: 1, a: [true, null, 'x'] })).toBe('{"b":1,"a":[true,null,"x"]}');
  });

  it('writes bigints as exact integers', () => {
    expect(serializeJson({ id_hash: -6306725157533644379n })).toBe('{"id_hash":-6306725157533644379}');
  });

  it('writes exact integers made by exactInteger as bigints are written', () => {
    const value = { a: exactInteger(-6306725157533644379n), b: [exactInteger(0n), exactInteger(9007199254740993n)] };
    expect(serializeJson(value)).toBe('{"a":-6306725157533644379,"b":[0,9007199254740993]}');
    expect(serializeJson(value)).toBe(serializeJson({ a: -6306725157533644379n, b: [0n, 9007199254740993n] }));
  });

  it('keeps one decimal for percentages', () => {
    expect(serializeJson([new OneDecimal(100), new OneDecimal(66.6), new OneDecimal(0)])).toBe('[100.0,66.6,0.0]');
  });

  it('leaves UTF-8 unescaped and skips undefined fields', () => {
    expect(serializeJson({ t: 'Zpráva – čas', u: undefined })).toBe('{"t":"Zpráva – čas"}');
  });
});

describe('serializeJson markers', () => {
  it('leaves strings that look like number markers as strings', () => {
    const lookalikes = { a: '\u0001deadbeef:123', b: '\\u0001:1', c: '"\u0001:5"' };
    expect(JSON.parse(serializeJson(lookalikes))).toEqual(lookalikes);
  });

  it('writes non-finite percentages as null', () => {
    expect(serializeJson({ p: new OneDecimal(Number.NaN), n: Number.POSITIVE_INFINITY })).toBe('{"p":null,"n":null}');
  });

  it('turns bigints into markers only inside serializeJson: JSON.stringify elsewhere still refuses them', () => {
    expect(serializeJson({ n: 1n })).toBe('{"n":1}');
    expect(() => JSON.stringify({ n: 1n })).toThrow(new TypeError('Do not know how to serialize a BigInt'));
    expect(Object.keys(BigInt.prototype)).toEqual([]);
  });

  it('a nested call does not end the outer one', () => {
    const inner = { toJSON: () => serializeJson({ a: 2n }) };
    expect(serializeJson({ inner, after: 3n })).toBe('{"inner":"{\\"a\\":2}","after":3}');
  });

  it('writes nested bigints and dates like the rest of the API', () => {
    expect(serializeJson({ list: [{ id: 9007199254740993n }], at: new Date(0) })).toBe('{"list":[{"id":9007199254740993}],"at":"1970-01-01T00:00:00.000Z"}');
  });

  it('unquotes exactly the markers the former regular expression did (a marker opening without a number stays)', () => {
    const prefix = exactInteger(1n).slice(0, -1);
    const former = new RegExp(`"\\\\u0001${prefix.slice(1)}(-?[0-9]+(?:\\.[0-9])?)"`, 'g');
    const value = {
      a: `${prefix}12`,
      b: `${prefix}-3.5`,
      c: `${prefix}1e+21`,
      d: `${prefix}`,
      e: `${prefix}7.25`,
      f: [`${prefix}0`, `x${prefix}5`, `${prefix}${prefix}9`, new OneDecimal(1e21), exactInteger(-42n)],
    };
    const text = JSON.stringify(value);
    expect(serializeJson(value)).toBe(text.replace(former, '$1'));
    expect(serializeJson(value)).toContain('"a":12,"b":-3.5,');
  });
});
