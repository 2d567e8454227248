import type { StoreChanges, UnitWrite } from '../store';
import { CS_CONTEXT, expectMsgfmtAccepts, fixture } from './gettext-test-helpers';
import { readPoBytes } from './po-bytes';
import { PO_FORMAT, PO_MONO_FORMAT } from './po.format';
import { writePo } from './po-writer';
import type { PoFlavour } from './po-units';

// UTF-8 and ISO-8859-1 files are patched as bytes (po-bytes.ts); the text path (decode, patch, encode) is
// the reference: both must give the same bytes for every edit, and the same errors.

const LIMITS = { maxUnits: 1000, maxStringLength: 1000 };

function bothPaths(content: Buffer, changes: StoreChanges, flavour: PoFlavour = 'bilingual'): Buffer {
  const viaText = writePo(content, changes, CS_CONTEXT, flavour, LIMITS, { bytes: false });
  const viaBytes = writePo(content, changes, CS_CONTEXT, flavour, LIMITS);
  expect(viaBytes.equals(viaText)).toBe(true);
  return viaBytes;
}

/** Every unit of the file edited alone, translated and marked fuzzy: the same bytes on both paths. */
function expectSameForEveryUnit(content: Buffer, flavour: PoFlavour = 'bilingual'): void {
  const format = flavour === 'bilingual' ? PO_FORMAT : PO_MONO_FORMAT;
  const { units } = format.parse(content);
  expect(units.length).toBeGreaterThan(0);
  for (const unit of units) {
    for (const state of ['translated', 'fuzzy'] as const) {
      const target = (unit.source.length > 0 ? unit.source : unit.target).map((form, index) => `Upraveno ${index} é ${form.slice(0, 20)}`);
      const write: UnitWrite = { context: unit.context, source: unit.source, target, state };
      const out = bothPaths(content, { update: [write] }, flavour);
      expect(format.parse(out).units.find((parsed) => parsed.context === unit.context && (flavour === 'monolingual' || parsed.source[0] === unit.source[0]))?.target[0]).toBe(target[0]);
    }
  }
}

describe('po writes as bytes', () => {
  it.each(['cs.po', 'crlf.po'])('gives the text path bytes for an edit of every unit of %s', (name) => {
    expect(readPoBytes(fixture(name))).not.toBeNull();
    expectSameForEveryUnit(fixture(name));
  });

  it('handles multi-line msgids, msgctxt, one msgid under several contexts and plural entries', () => {
    const file = Buffer.from(
      [
        'msgid ""',
        'msgstr ""',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"',
        '',
        '#. A wrapped msgid',
        'msgid ""',
        '"Žluťoučký kůň úpěl ďábelské ódy, a to na více řádcích, aby byl msgid zalomený "',
        '"do dvou řádků"',
        'msgstr "old"',
        '',
        'msgctxt "menu"',
        'msgid "Open"',
        'msgstr "Otevřít"',
        '',
        'msgctxt "dialog"',
        'msgid "Open"',
        'msgstr "Otevřít soubor"',
        '',
        'msgid "Open"',
        'msgstr ""',
        '',
        '#, c-format',
        'msgid "%d file"',
        'msgid_plural "%d files"',
        'msgstr[0] "%d soubor"',
        'msgstr[1] "%d soubory"',
        'msgstr[2] "%d souborů"',
        '',
        '#~ msgid "Gone"',
        '#~ msgstr "Pryč"',
        '',
      ].join('\n'),
    );
    expectSameForEveryUnit(file);
    const out = bothPaths(file, { update: [{ context: 'dialog', source: ['Open'], target: ['Otevřít…'], state: 'translated' }] });
    expect(out.toString()).toContain('msgctxt "menu"\nmsgid "Open"\nmsgstr "Otevřít"\n');
    expect(out.toString()).toContain('msgctxt "dialog"\nmsgid "Open"\nmsgstr "Otevřít…"\n');
    expectMsgfmtAccepts(out);
  });

  it('edits the first of duplicate entries, as the text path does', () => {
    const file = Buffer.from('msgid "a"\nmsgstr "1"\n\nmsgid "a"\nmsgstr "2"\n');
    const out = bothPaths(file, { update: [{ context: '', source: ['a'], target: ['x'], state: 'translated' }] });
    expect(out.toString()).toMatch(/msgid "a"\nmsgstr "x"\n\nmsgid "a"\nmsgstr "2"\n$/);
  });

  it('keeps a UTF-8 BOM, a missing final newline and appends new entries after it', () => {
    const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('msgid "a"\nmsgstr "á"\n\nmsgid "b"\nmsgstr ""')]);
    const add = [{ context: '', source: ['c'], target: ['č'], state: 'translated' as const }];
    const out = bothPaths(file, { update: [{ context: '', source: ['b'], target: ['ب'], state: 'translated' }], add });
    expect(out.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(out.toString('utf8')).toMatch(/msgid "b"\nmsgstr "ب"\n\nmsgid "c"\nmsgstr "č"\n$/);
  });

  it('writes ISO-8859-1 files as bytes, a file without header gets one, po-mono keys by msgctxt.msgid', () => {
    const latin1 = Buffer.concat([
      Buffer.from('msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n\nmsgid "a"\nmsgstr "', 'latin1'),
      Buffer.from([0xe9]),
      Buffer.from('"\n', 'latin1'),
    ]);
    expect(readPoBytes(latin1)?.encoding.charset).toBe('latin1');
    expectSameForEveryUnit(latin1);
    expectSameForEveryUnit(Buffer.from('msgid "a"\nmsgstr "1"\n\nmsgctxt "k"\nmsgid "b"\nmsgstr "2"\n'));
    expectSameForEveryUnit(fixture('mono-cs.po'), 'monolingual');
  });

  it('leaves other charsets to the text path', () => {
    expect(readPoBytes(fixture('latin2.po'))).toBeNull();
  });

  it('counts a string limit in characters, not bytes, and reports bad UTF-8 with its line', () => {
    const file = Buffer.from('msgid "a"\nmsgstr "1"\n\nmsgid "žžžž"\nmsgstr "2"\n');
    const update = [{ context: '', source: ['a'], target: ['x'], state: 'translated' as const }];
    // "žžžž" is 8 bytes, 4 characters.
    expect(writePo(file, { update }, CS_CONTEXT, 'bilingual', { maxStringLength: 4 }).toString()).toContain('msgstr "x"');
    expect(() => writePo(file, { update }, CS_CONTEXT, 'bilingual', { maxStringLength: 3 })).toThrow('line 4: string longer than 3 characters');
    const bad = Buffer.concat([Buffer.from('msgid "a"\nmsgstr "1"\n\nmsgid "b"\nmsgstr "'), Buffer.from([0xff]), Buffer.from('"\n')]);
    expect(() => writePo(bad, { update }, CS_CONTEXT, 'bilingual')).toThrow('line 5: file is not valid utf-8');
  });
});
