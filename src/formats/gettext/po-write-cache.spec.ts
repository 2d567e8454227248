import { UTF8_BOM } from '../format';
import type { StoreChanges, UnitWrite } from '../store';
import { CS_CONTEXT, fixture } from './gettext-test-helpers';
import { PO_FORMAT, PO_MONO_FORMAT } from './po.format';
import { writePo } from './po-writer';
import type { PoFlavour } from './po-units';
import { poWriteCacheHits, usePoWriteCache } from './po-write-cache';

// The remembered entry table (po-write-cache.ts) must never change a byte: a chain of writes, each on the
// previous write's output, gives the same bytes with the cache as without, and the cache is really used.

const LIMITS = { maxUnits: 1000, maxStringLength: 1000 };

/** Every unit edited in turn (translated, then fuzzy with a longer, wrapped text), each write on the last one's output. */
function chain(content: Buffer, flavour: PoFlavour = 'bilingual'): { hits: number; writes: number } {
  const format = flavour === 'bilingual' ? PO_FORMAT : PO_MONO_FORMAT;
  const edits: StoreChanges[] = [];
  for (const unit of format.parse(content).units) {
    const forms = unit.source.length > 0 ? unit.source : unit.target;
    const edit = (target: string[], state: UnitWrite['state']): StoreChanges => ({ update: [{ context: unit.context, source: unit.source, target, state }] });
    edits.push(edit(forms.map((form, i) => `Upraveno ${i} é ${form.slice(0, 10)}`), 'translated'));
    edits.push(edit(forms.map((form, i) => `${'dlouhý text '.repeat(12)}${i}\n${form.slice(0, 5)}`), 'fuzzy'));
  }
  const run = (cache: boolean): Buffer[] => {
    usePoWriteCache(cache);
    const outputs: Buffer[] = [];
    let current = content;
    for (const changes of edits) outputs.push((current = writePo(current, changes, CS_CONTEXT, flavour, LIMITS)));
    return outputs;
  };
  const without = run(false);
  const withCache = run(true);
  withCache.forEach((output, step) => expect(output.equals(without[step])).toBe(true));
  return { hits: poWriteCacheHits(), writes: edits.length };
}

describe('po write cache', () => {
  afterEach(() => usePoWriteCache(false));

  it.each(['cs.po', 'crlf.po'])('gives the same bytes as a full scan for a chain of edits of every unit of %s', (name) => {
    const { hits, writes } = chain(fixture(name));
    expect(hits).toBe(writes - 1);
  });

  it('gives the same bytes for a monolingual file, a BOM and a file without a final newline', () => {
    expect(chain(fixture('mono-cs.po'), 'monolingual').hits).toBeGreaterThan(0);
    expect(chain(Buffer.concat([UTF8_BOM, fixture('cs.po')])).hits).toBeGreaterThan(0);
    const cs = fixture('cs.po').toString('utf8').replace(/\n+$/, '');
    expect(chain(Buffer.from(cs)).hits).toBeGreaterThan(0);
  });

  it('scans again when the file changed since the write (a pull, a hand edit), or the limits did', () => {
    usePoWriteCache(true);
    const [first, second] = PO_FORMAT.parse(fixture('cs.po')).units;
    const edit = (target: string): StoreChanges => ({ update: [{ context: first.context, source: first.source, target: [target], state: 'translated' }] });
    const written = writePo(fixture('cs.po'), edit('A'), CS_CONTEXT, 'bilingual', LIMITS);
    // One byte of another entry changed on disk: same length, different content.
    const text = written.toString('latin1');
    const at = written.indexOf(Buffer.from(`msgid "${second.source[0]}"`)) + 8;
    const changed = Buffer.from(text.slice(0, at) + (text[at] === 'X' ? 'Y' : 'X') + text.slice(at + 1), 'latin1');
    expect(changed.length).toBe(written.length);
    const viaCache = writePo(changed, edit('B'), CS_CONTEXT, 'bilingual', LIMITS);
    expect(poWriteCacheHits()).toBe(0);
    usePoWriteCache(false);
    expect(viaCache.equals(writePo(changed, edit('B'), CS_CONTEXT, 'bilingual', LIMITS))).toBe(true);

    usePoWriteCache(true);
    const again = writePo(fixture('cs.po'), edit('A'), CS_CONTEXT, 'bilingual', LIMITS);
    writePo(again, edit('B'), CS_CONTEXT, 'bilingual', { maxUnits: 999, maxStringLength: 1000 });
    expect(poWriteCacheHits()).toBe(0);
    expect(() => writePo(again, edit('B'), CS_CONTEXT, 'bilingual', { maxUnits: 1 })).toThrow(/more than 1 units/);
  });

  it('remembers nothing after appending an entry, or when an edited entry is over the string limit', () => {
    usePoWriteCache(true);
    const [first] = PO_FORMAT.parse(fixture('cs.po')).units;
    const added = writePo(fixture('cs.po'), { update: [], add: [{ context: '', source: ['Brand new'], target: ['Nové'], state: 'translated' }] }, CS_CONTEXT, 'bilingual', LIMITS);
    const edit: StoreChanges = { update: [{ context: first.context, source: first.source, target: ['x'.repeat(1500)], state: 'translated' }] };
    const next = writePo(added, edit, CS_CONTEXT, 'bilingual', { maxStringLength: 1000 });
    expect(poWriteCacheHits()).toBe(0);
    // The msgstr written is over the limit: the next write reads the file and refuses it, as parse would.
    expect(() => writePo(next, edit, CS_CONTEXT, 'bilingual', { maxStringLength: 1000 })).toThrow(/longer than 1000 characters/);
    expect(poWriteCacheHits()).toBe(0);
  });
});
