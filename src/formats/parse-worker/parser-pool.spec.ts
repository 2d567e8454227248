import { FormatLimitError, FormatParseError, FormatWriteError } from '../format';
import { ParserPool } from './parser-pool';

// The real worker thread (built from these sources by worker-script.ts when run from TypeScript).

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('ParserPool', () => {
  let pool: ParserPool;

  afterEach(async () => {
    await pool?.close();
  });

  it('parses in a worker: units in file order with paths, duplicates reported', async () => {
    pool = new ParserPool({ workers: 1, memoryMb: 64 });
    const outcome = await pool.parse('json-nested', Buffer.from('{"a": {"b": "B"}, "list": ["x", 2], "a.b": "again"}'), {});
    expect(outcome.units).toEqual([
      { context: 'a.b', source: 'B', path: [{ key: 'a' }, { key: 'b' }], valueType: 'string', position: 1 },
      { context: 'list[0]', source: 'x', path: [{ key: 'list' }, { index: 0 }], valueType: 'string', position: 2 },
      { context: 'list[1]', source: '2', path: [{ key: 'list' }, { index: 1 }], valueType: 'number', position: 3 },
    ]);
    expect(outcome).toMatchObject({ duplicates: ['a.b'], duplicateCount: 1 });
  });

  it('delivers large files whole, across several chunks', async () => {
    pool = new ParserPool({ workers: 1, memoryMb: 64 });
    const entries = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`key${i}`, `value ${i}`]));
    const { units } = await pool.parse('json', json(entries), {});
    expect(units).toHaveLength(5000);
    expect(units[4999]).toMatchObject({ context: 'key4999', source: 'value 4999', position: 5000 });
  });

  it('answers bad files with FormatParseError and limits with FormatLimitError, then keeps working', async () => {
    pool = new ParserPool({ workers: 1, memoryMb: 64 });
    await expect(pool.parse('json', Buffer.from('{"a": '), {})).rejects.toThrow(new FormatParseError('Invalid JSON: expected a value, found end of file at line 1, column 7'));
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

  it('writes files back in the worker: units sent in chunks, removed keys dropped, limits and write errors kept', async () => {
    pool = new ParserPool({ workers: 1, memoryMb: 64 });
    const units = Array.from({ length: 4500 }, (_, i) => ({ context: `k${i}`, path: [{ key: `k${i}` }], valueType: 'string' as const, target: `v${i}` }));
    const written = await pool.write('json', { mode: 'apply', current: Buffer.from('{"old": "x", "gone": "y"}'), units, removed: ['gone'] }, {});
    const keys = Object.keys(JSON.parse(written.toString('utf8')) as object);
    expect([keys.length, keys[0], keys[1], keys[4500]]).toEqual([4501, 'old', 'k0', 'k4499']);
    const fresh = await pool.write('json-nested', { mode: 'new', current: Buffer.from('{"a": {"b": "B"}}'), units: [], removed: [] }, {});
    expect(fresh.toString('utf8')).toBe('{\n    "a": {\n        "b": ""\n    }\n}\n');
    await expect(pool.write('json', { mode: 'apply', current: json({ a: '1', b: '2' }), units: [], removed: [] }, { maxUnits: 1 })).rejects.toMatchObject({ kind: 'units' });
    const conflict = [{ context: 'a.b', path: [{ key: 'a' }, { key: 'b' }], valueType: 'string' as const, target: 'x' }];
    await expect(pool.write('json', { mode: 'apply', current: json({ a: 'flat' }), units: conflict, removed: [] }, {})).rejects.toBeInstanceOf(FormatWriteError);
  });

  it('ends a worker that runs out of memory: its file fails with a memory limit, the next one parses', async () => {
    pool = new ParserPool({ workers: 1, memoryMb: 16 });
    // About 40 MB of parsed values for a 16 MB heap.
    const big = json(Array.from({ length: 400_000 }, (_, i) => `string number ${i} of a file too big for its worker`));
    await expect(pool.parse('json', big, {})).rejects.toMatchObject({ name: 'FormatLimitError', kind: 'memory' });
    expect((await pool.parse('json', json({ after: 'crash' }), {})).units[0].source).toBe('crash');
  });

  it('runs at most `workers` parses at once and queues the rest', async () => {
    pool = new ParserPool({ workers: 2, memoryMb: 64 });
    const files = Array.from({ length: 5 }, (_, i) => pool.parse('json', json({ file: String(i) }), {}));
    expect(pool.load).toEqual({ running: 2, queued: 3 });
    expect((await Promise.all(files)).map((outcome) => outcome.units[0].source)).toEqual(['0', '1', '2', '3', '4']);
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
