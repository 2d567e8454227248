import { FormatLimitError, FormatParseError, FormatWriteError } from '../format';
import type { UnitKey, UnitWrite } from '../store';
import { ParserPool } from './parser-pool';

// The real worker thread (built from these sources by worker-script.ts when run from TypeScript).

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('ParserPool', () => {
  let pool: ParserPool;

  afterEach(async () => {
    await pool?.close();
  });

  it('parses in a worker: StoreUnits in file order, duplicates reported', async () => {
    pool = new ParserPool({ workers: 1, memoryMb: 64 });
    const outcome = await pool.parse('json-nested', Buffer.from('{"a": {"b": "B"}, "list": ["x", 2], "a.b": "again"}'), {});
    expect(outcome.units.map(({ context, target, position }) => ({ context, target, position }))).toEqual([
      { context: 'a.b', target: ['B'], position: 1 },
      { context: 'list[0]', target: ['x'], position: 2 },
      { context: 'list[1]', target: ['2'], position: 3 },
    ]);
    expect(outcome.units[0]).toEqual({ context: 'a.b', source: [], target: ['B'], plural: false, note: '', location: '', flags: '', previousSource: '', fuzzy: false, approved: false, readOnly: false, position: 1, line: 1 });
    expect(outcome).toMatchObject({ duplicates: ['a.b'], duplicateCount: 1 });
  });

  it('hands a large current file over to the worker when asked, and copies a small pooled one', async () => {
    pool = new ParserPool({ workers: 1, memoryMb: 64 });
    const context = { languageCode: 'cs', plural: { number: 1, formula: '0' } };
    const update: UnitWrite[] = [{ context: 'k0', source: [], target: ['changed'], state: 'translated' }];
    const large = json(Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, `value ${i}`])));
    const expected = large.toString().replace('"k0":"value 0"', '"k0":"changed"');
    const job = { mode: 'write' as const, update, add: [], remove: [], context, handOver: true };
    const written = await pool.write('json', { ...job, current: large }, {});
    expect(written?.toString()).toBe(expected);
    expect(large.length).toBe(0); // the memory went to the worker
    const small = Buffer.from('{"k0":"value 0"}');
    expect(small.buffer.byteLength).toBeGreaterThan(small.length); // a view into Node's pool
    expect((await pool.write('json', { ...job, current: small }, {}))?.toString()).toBe('{"k0":"changed"}');
    expect(small.toString()).toBe('{"k0":"value 0"}');
  });

  it('delivers large files whole, across several chunks', async () => {
    pool = new ParserPool({ workers: 1, memoryMb: 64 });
    const entries = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`key${i}`, `value ${i}`]));
    const { units } = await pool.parse('json', json(entries), {});
    expect(units).toHaveLength(5000);
    expect(units[4999]).toMatchObject({ context: 'key4999', target: ['value 4999'], position: 5000 });
  });

  it('answers bad files with FormatParseError and limits with FormatLimitError, then keeps working', async () => {
    pool = new ParserPool({ workers: 1, memoryMb: 64 });
    await expect(pool.parse('json', Buffer.from('{"a": '), {})).rejects.toThrow(new FormatParseError('line 1: invalid JSON: expected a value, found end of file (column 7)'));
    const tooMany = pool.parse('json', json({ a: '1', b: '2', c: '3' }), { maxUnits: 2 });
    await expect(tooMany).rejects.toBeInstanceOf(FormatLimitError);
    await expect(tooMany).rejects.toMatchObject({ kind: 'units', message: 'more than 2 strings in one file (the limit was reached at line 1, column 22)' });
    await expect(pool.parse('json', json({ a: 'x'.repeat(11) }), { maxStringLength: 10 })).rejects.toMatchObject({ kind: 'string-length' });
    await expect(pool.parse('json', Buffer.from('{"a": "x\\u0000y"}'), {})).rejects.toThrow(/contains a NUL character/);
    await expect(pool.parse('json', Buffer.from('{"\\ud800": "x"}'), {})).rejects.toThrow(/unpaired surrogate/);
    // An exception of the worker's own code fails that file only, as unreadable, with the detail kept as its cause.
    const internal = pool.parse('no-such-format', json({}), {});
    await expect(internal).rejects.toBeInstanceOf(FormatParseError);
    await expect(internal).rejects.toMatchObject({ message: 'the file could not be parsed (parser error)', cause: new Error('Unknown file format no-such-format') });
    expect((await pool.parse('json', json({ a: 'ok' }), { maxUnits: 2 })).units).toHaveLength(1);
  });

  it('writes files back in the worker: updates sent in chunks, removed keys dropped, limits and write errors kept', async () => {
    pool = new ParserPool({ workers: 1, memoryMb: 64 });
    const context = { languageCode: 'cs', plural: { number: 2, formula: '(n != 1)' }, template: null };
    const job = (current: Buffer | null, update: UnitWrite[], remove: UnitKey[] = []) => ({ mode: 'write' as const, current, update, add: [], remove, context });
    const update = Array.from({ length: 4500 }, (_, i): UnitWrite => ({ context: `k${i}`, source: [], target: [`v${i}`], state: 'translated' }));
    const written = (await pool.write('json', job(Buffer.from('{"old": "x", "gone": "y"}'), update, [{ context: 'gone', source: [] }]), {}))!;
    const keys = Object.keys(JSON.parse(written.toString('utf8')) as object);
    expect([keys.length, keys[0], keys[1], keys[4500]]).toEqual([4501, 'old', 'k0', 'k4499']);
    const fresh = await pool.write('json-nested', { ...job(Buffer.from('{"a": {"b": "B"}}'), []), mode: 'create' }, {});
    // json-family patches the base's bytes: the new file keeps its layout, only the targets emptied.
    expect(fresh?.toString('utf8')).toBe('{"a": {"b": ""}}');
    expect((await pool.write('json', job(null, [{ context: 'n', source: [], target: ['N'], state: 'translated' }]), {}))?.toString()).toBe('{\n    "n": "N"\n}\n');
    await expect(pool.write('json', job(json({ a: '1', b: '2' }), []), { maxUnits: 1 })).rejects.toMatchObject({ kind: 'units' });
    const conflict: UnitWrite[] = [{ context: 'a.b', source: [], target: ['x'], state: 'translated' }];
    await expect(pool.write('json-nested', job(json({ a: 'flat' }), conflict), {})).rejects.toBeInstanceOf(FormatWriteError);
  });

  it('ends a worker that runs out of memory: its file fails with a memory limit, the next one parses', async () => {
    pool = new ParserPool({ workers: 1, memoryMb: 16 });
    // About 40 MB of parsed values for a 16 MB heap.
    const big = json(Array.from({ length: 400_000 }, (_, i) => `string number ${i} of a file too big for its worker`));
    await expect(pool.parse('json', big, {})).rejects.toMatchObject({ name: 'FormatLimitError', kind: 'memory' });
    expect((await pool.parse('json', json({ after: 'crash' }), {})).units[0].target).toEqual(['crash']);
  });

  it('runs at most `workers` parses at once and queues the rest', async () => {
    pool = new ParserPool({ workers: 2, memoryMb: 64 });
    const files = Array.from({ length: 5 }, (_, i) => pool.parse('json', json({ file: String(i) }), {}));
    expect(pool.load).toEqual({ running: 2, queued: 3 });
    expect((await Promise.all(files)).map((outcome) => outcome.units[0].target[0])).toEqual(['0', '1', '2', '3', '4']);
    expect(pool.load).toEqual({ running: 0, queued: 0 });
  });

  it('abandons a parse past its time limit and refuses work once closed', async () => {
    pool = new ParserPool({ workers: 1, memoryMb: 64, timeoutMs: 1 });
    const entries = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`key${i}`, `value ${i}`]));
    await expect(pool.parse('json', json(entries), {})).rejects.toMatchObject({ kind: 'time' });
    await pool.close();
    await expect(pool.parse('json', json({}), {})).rejects.toThrow('The file parser is shut down.');
  });
});
