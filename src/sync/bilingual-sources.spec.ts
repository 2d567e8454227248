import { FormatParseError } from '../formats/format';
import type { StoreUnit } from '../formats/store';
import { bilingualSourceStrings } from './bilingual-sources';

// The source strings of a bilingual component (formats.md §2.1, §2.4): new_base first, then every file's
// (source, context) pairs, first seen first; a file that cannot be parsed adds nothing.

const entry = (context: string, source: string): StoreUnit => ({
  context, source: [source], target: [''], plural: false, note: '', location: '', flags: '', previousSource: '',
  fuzzy: false, approved: false, readOnly: false, position: 1, line: 1,
});

describe('bilingualSourceStrings', () => {
  const files = [
    { isSource: true, filename: '', units: [] as StoreUnit[] },
    { isSource: false, filename: 'cs.po', units: [entry('', 'Hello'), entry('menu', 'File')] },
    { isSource: false, filename: 'bad.po', units: [] },
    { isSource: false, filename: 'de.po', units: [entry('menu', 'File'), entry('', 'Bye')] },
  ];
  const readers = (newBase: StoreUnit[] | null) => ({
    newBase: newBase ? async () => Buffer.from('pot') : null,
    read: async (file: (typeof files)[number]) => Buffer.from(file.filename),
    parse: async (content: Buffer, file: (typeof files)[number] | null) => {
      if (file?.filename === 'bad.po') throw new FormatParseError('line 1: broken');
      return file ? file.units : newBase!;
    },
    skippable: (error: unknown) => error instanceof FormatParseError,
  });

  it('unions the files’ pairs in first-seen order with positions 1..n', async () => {
    const strings = await bilingualSourceStrings(files, 'en', readers(null));
    expect(strings.map(({ context, source, position }) => [context, source, position])).toEqual([
      ['', 'Hello', 1],
      ['menu', 'File', 2],
      ['', 'Bye', 3],
    ]);
  });

  it('puts new_base first', async () => {
    const strings = await bilingualSourceStrings(files, 'en', readers([entry('', 'Bye'), entry('', 'Only in POT')]));
    expect(strings.map(({ source }) => source)).toEqual(['Bye', 'Only in POT', 'Hello', 'File']);
  });
});

describe('bilingualSourceStrings, reading ahead', () => {
  const many = ['a', 'b', 'c', 'd'].map((name) => ({ isSource: false, filename: `${name}.po`, units: [entry('', name)] }));

  it('parses one file at a time in file order, the next while the current one is collected', async () => {
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const strings = await bilingualSourceStrings(many, 'en', {
      newBase: null,
      read: async (file) => Buffer.from(file.filename),
      parse: async (_content, file) => {
        running += 1;
        most = Math.max(most, running);
        order.push(file!.filename);
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        return file!.units;
      },
      skippable: () => false,
    });
    expect(order).toEqual(['a.po', 'b.po', 'c.po', 'd.po']);
    expect(most).toBe(1);
    expect(strings.map(({ source }) => source)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('throws a failure that is not the file’s own, in its turn, with no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failure = bilingualSourceStrings(many, 'en', {
        newBase: null,
        read: async (file) => Buffer.from(file.filename),
        parse: async (_content, file) => {
          if (file!.filename === 'c.po') throw new Error('worker died');
          return file!.units;
        },
        skippable: (error) => error instanceof FormatParseError,
      });
      await expect(failure).rejects.toThrow('worker died');
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
