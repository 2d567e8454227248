import { exactInteger, OneDecimal, RawJson, serializeJson, serializeJsonPayload } from './json-writer';

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

describe('serializeJsonPayload', () => {
  /** A value whose JSON text is longer than `length` code units: markers, non-ASCII text and lookalikes. */
  function largeValue(length: number): unknown {
    const prefix = exactInteger(1n).slice(0, -1);
    const units = [];
    for (let i = 0; units.length * 200 < length; i += 1) {
      units.push({
        id_hash: exactInteger(-4979696104279204197n + BigInt(i)),
        content_hash: BigInt(i) * 1_000_000_007n,
        percent: new OneDecimal(i / 3),
        text: `Řetězec č. ${i} — 🚀 "quoted" \u0001deadbeef:${i}`,
        lookalikes: [`${prefix}${i}`, `${prefix}`, `${prefix}1e+21`, `x${prefix}5`],
      });
    }
    return { count: units.length, results: units };
  }

  it('answers a small body as the string serializeJson writes', () => {
    const value = { id: 1n, name: 'Ahoj', percent: new OneDecimal(50) };
    expect(serializeJsonPayload(value)).toBe(serializeJson(value));
  });

  it('answers a large body as the UTF-8 bytes of what serializeJson writes', () => {
    const value = largeValue(40_000);
    const payload = serializeJsonPayload(value);
    expect(Buffer.isBuffer(payload)).toBe(true);
    expect((payload as Buffer).equals(Buffer.from(serializeJson(value), 'utf8'))).toBe(true);
    expect((payload as Buffer).toString('utf8')).toContain('"id_hash":-4979696104279204197,');
  });

  it('answers a large body without markers as its bytes', () => {
    const value = { text: 'ž'.repeat(20_000) };
    expect((serializeJsonPayload(value) as Buffer).equals(Buffer.from(JSON.stringify(value), 'utf8'))).toBe(true);
  });
});

// A RawJson text (a page of units PostgreSQL wrote, unit.response.ts) is written verbatim where it stands.
describe('RawJson', () => {
  const units = '[{"id":1,"id_hash":-6306725157533644379,"note":"\\u0001 é"}]';

  it('is written as it is, beside the envelope and its own markers', () => {
    const body = { count: 9007199254740993n, next: null, results: new RawJson(units), percent: new OneDecimal(50) };
    expect(serializeJson(body)).toBe(`{"count":9007199254740993,"next":null,"results":${units},"percent":50.0}`);
  });

  it('is a whole body on its own, and may appear more than once', () => {
    expect(serializeJson(new RawJson('{"a":1}'))).toBe('{"a":1}');
    expect(serializeJson([new RawJson('1'), new RawJson('"x"'), new RawJson('1')])).toBe('[1,"x",1]');
  });

  it('leaves a string that spells a RawJson marker without this process\'s nonce as a string', () => {
    const text = '"\\u0001000000000000000000000000:r0"';
    expect(serializeJson({ a: JSON.parse(text), b: new RawJson('2') })).toBe(`{"a":${text},"b":2}`);
  });

  it('answers a large body as the UTF-8 bytes of the whole text', () => {
    const large = `[${Array.from({ length: 3000 }, (_, i) => `{"id":${i},"s":"é"}`).join(',')}]`;
    const payload = serializeJsonPayload({ count: 3000, results: new RawJson(large) });
    expect(Buffer.isBuffer(payload)).toBe(true);
    expect(payload.toString()).toBe(`{"count":3000,"results":${large}}`);
  });

  it('is a whole payload as its own text, or its UTF-8 bytes when large', () => {
    expect(serializeJsonPayload(new RawJson('{"id":5,"note":"\\u0001 é"}'))).toBe('{"id":5,"note":"\\u0001 é"}');
    const large = `[${'"ž",'.repeat(6000)}1]`;
    const payload = serializeJsonPayload(new RawJson(large));
    expect(Buffer.isBuffer(payload) && payload.equals(Buffer.from(large, 'utf8'))).toBe(true);
    expect(serializeJsonPayload(new RawJson(large)).toString()).toBe(serializeJson(new RawJson(large)));
  });

  it('is the value its text denotes outside serializeJson', () => {
    expect(JSON.stringify({ results: new RawJson('[1,{"a":"b"}]') })).toBe('{"results":[1,{"a":"b"}]}');
  });
});
