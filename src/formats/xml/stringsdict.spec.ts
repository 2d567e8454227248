import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatLimitError, FormatParseError } from '../format';
import type { StoreUnit, StoreWriteContext, UnitWrite } from '../store';
import { STRINGSDICT_FORMAT, STRINGSDICT_NEW_FILE } from './stringsdict-format';
import { expectXmllintValid, readWithPlistlib } from './xml2-validators.testing';

// Facts: shared/reference/formats.md §3.5 (stringsdict), §2.3 (category lists, the extra leading zero form).

const fixture = (name: string): Buffer => readFileSync(join(process.cwd(), 'src/formats/xml/fixtures/stringsdict', name));
const CS = fixture('cs.stringsdict');
const CS_TEXT = CS.toString('utf8');
const EN = fixture('en.stringsdict');

/** Czech in Weblate for stringsdict: CLDR plural + a leading zero form (4 forms: zero, one, few, other). */
const czech: StoreWriteContext = { languageCode: 'cs', plural: { number: 4, formula: 'n==0 ? 0 : ...' } };

function unit(fields: Partial<StoreUnit> & Pick<StoreUnit, 'context' | 'target' | 'position' | 'line'>): StoreUnit {
  return {
    source: [],
    plural: false,
    note: '',
    location: '',
    flags: '',
    previousSource: '',
    fuzzy: false,
    approved: false,
    readOnly: false,
    ...fields,
  };
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + 1) !== -1) throw new Error(`not exactly once: ${from}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

function write(changes: Parameters<typeof STRINGSDICT_FORMAT.write>[1], content: Buffer = CS, context: StoreWriteContext = czech): string {
  const out = STRINGSDICT_FORMAT.write(content, changes, context);
  expectXmllintValid(out);
  readWithPlistlib(out);
  return out.toString('utf8');
}

const update = (context: string, target: string[], state: UnitWrite['state'] = 'translated'): UnitWrite => ({ context, source: [], target, state });

describe('stringsdict parse (formats.md §3.5)', () => {
  it('splits each entry into the format key unit and one plural unit per variable, zero first', () => {
    expect(STRINGSDICT_FORMAT.parse(CS, { language: 'cs' }).units).toEqual([
      unit({ context: 'files_count', target: ['%#@files@ v %#@folders@'], position: 1, line: 6 }),
      unit({ context: 'files_count:files', target: ['', '%d soubor', '%d soubory', '%d souborů'], plural: true, position: 2, line: 10 }),
      unit({ context: 'files_count:folders', target: ['žádné složce', '%d složce', '', '%d složkách'], plural: true, position: 3, line: 23 }),
      unit({ context: 'apples & pears', target: ['%#@apples@'], position: 4, line: 37 }),
      unit({ context: 'apples & pears:apples', target: ['', '<b>%lu</b> jablko', '', '%lu jablek'], plural: true, position: 5, line: 41 }),
    ]);
  });

  it('uses English categories (zero, one, other) without a language, and the language\'s own otherwise', () => {
    expect(STRINGSDICT_FORMAT.parse(EN).units.map((one) => one.target)).toEqual([['%#@files@'], ['No files', '%d file', '%d files']]);
    // ar already has zero: no second one is added.
    expect(STRINGSDICT_FORMAT.parse(EN, { language: 'ar' }).units[1].target).toEqual(['No files', '%d file', '', '', '', '%d files']);
    expect(STRINGSDICT_FORMAT.parse(EN, { language: 'ja' }).units[1].target).toEqual(['No files', '%d files']);
  });

  it('rejects what Weblate rejects, with the line', () => {
    const wrap = (body: string): Buffer => Buffer.from(`<plist version="1.0">\n<dict>\n${body}</dict>\n</plist>\n`);
    expect(() => STRINGSDICT_FORMAT.parse(wrap('<key>a</key>\n<string>x</string>\n'))).toThrow(new FormatParseError('line 3: a is not a dict'));
    expect(() =>
      STRINGSDICT_FORMAT.parse(
        wrap('<key>a</key>\n<dict>\n<key>v</key>\n<dict><key>NSStringFormatSpecTypeKey</key><string>Other</string></dict>\n</dict>\n'),
      ),
    ).toThrow(new FormatParseError('line 5: v in a is not of NSStringPluralRuleType'));
    expect(() => STRINGSDICT_FORMAT.parse(wrap('<key>a</key>\n<dict>\n<key>v</key>\n<string>x</string>\n</dict>\n'))).toThrow(
      new FormatParseError('line 5: unexpected key v in a'),
    );
    expect(() => STRINGSDICT_FORMAT.parse(wrap('<key>a</key>\n'))).toThrow(new FormatParseError('line 3: key a has no value'));
    expect(() => STRINGSDICT_FORMAT.parse(Buffer.from('<plist><array/></plist>'))).toThrow(new FormatParseError('line 1: the plist does not hold a <dict>'));
    expect(() => STRINGSDICT_FORMAT.parse(Buffer.from('<plist>\n<dict>\n<key>a</key>\n</plist>'))).toThrow(/^line 4: /);
  });

  it('reports duplicate keys with both lines', () => {
    const text = Buffer.from(
      '<plist version="1.0">\n<dict>\n<key>a</key>\n<dict><key>NSStringLocalizedFormatKey</key><string>1</string></dict>\n<key>a</key>\n<dict><key>NSStringLocalizedFormatKey</key><string>2</string></dict>\n</dict>\n</plist>\n',
    );
    expect(() => STRINGSDICT_FORMAT.parse(text)).toThrow(new FormatParseError('line 5: duplicate key "a" (first at line 3)'));
    const seen: string[] = [];
    expect(STRINGSDICT_FORMAT.parse(text, { onDuplicate: (dup) => seen.push(dup.target[0]) }).units.map((one) => one.target)).toEqual([['1']]);
    expect(seen).toEqual(['2']);
  });

  it('enforces the limits', () => {
    expect(() => STRINGSDICT_FORMAT.parse(CS, { limits: { maxUnits: 4 } })).toThrow(expect.objectContaining({ kind: 'units' }) as Error);
    expect(() => STRINGSDICT_FORMAT.parse(CS, { limits: { maxStringLength: 10 } })).toThrow(FormatLimitError);
    expect(STRINGSDICT_FORMAT.parse(CS, { limits: { maxUnits: 5, maxStringLength: 40 } }).units).toHaveLength(5);
  });
});

describe('stringsdict translation plural (formats.md §2.3)', () => {
  it('is the language\'s plural with a leading zero form, one form per category of the file', () => {
    const cs = { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' };
    expect(STRINGSDICT_FORMAT.translationPlural?.('cs', cs)).toEqual({ number: 4, formula: '(n == 0) ? 0 : ((n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2) + 1' });
    expect(STRINGSDICT_FORMAT.translationPlural?.('en', { number: 2, formula: 'n != 1' })).toEqual({ number: 3, formula: '(n == 0) ? 0 : (n != 1) + 1' });
    // Arabic's categories start with zero already: its own plural.
    const ar = { number: 6, formula: 'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5' };
    expect(STRINGSDICT_FORMAT.translationPlural?.('ar', ar)).toBe(ar);
  });
});

describe('stringsdict write (patches the original bytes)', () => {
  it('leaves the file byte-identical when nothing changes', () => {
    expect(STRINGSDICT_FORMAT.write(CS, { update: [] }, czech).equals(CS)).toBe(true);
    const same = STRINGSDICT_FORMAT.parse(CS, { language: 'cs' }).units.map((one) => update(one.context, one.target));
    expect(STRINGSDICT_FORMAT.write(CS, { update: same }, czech).equals(CS)).toBe(true);
  });

  it('replaces a format key string in place', () => {
    expect(write({ update: [update('files_count', ['%#@folders@: %#@files@'])] })).toBe(
      replaceOnce(CS_TEXT, '<string>%#@files@ v %#@folders@</string>', '<string>%#@folders@: %#@files@</string>'),
    );
  });

  it('keeps the format key when its target is empty (Weblate writes the source then)', () => {
    expect(write({ update: [{ context: 'files_count', source: ['%#@files@'], target: [''], state: 'empty' }] })).toBe(
      replaceOnce(CS_TEXT, '<string>%#@files@ v %#@folders@</string>', '<string>%#@files@</string>'),
    );
  });

  it('edits plural forms: changed ones in place, a new category inserted in order, an emptied one removed', () => {
    const out = write({
      update: [
        update('files_count:files', ['žádný soubor', '%d soubor', '%d soubory', '%d souborů!']),
        update('files_count:folders', ['', '%d složce', '', '%d složkách']),
      ],
    });
    let expected = replaceOnce(
      CS_TEXT,
      `			<string>d</string>
			<key>one</key>
			<string>%d soubor</string>`,
      `			<string>d</string>
			<key>zero</key>
			<string>žádný soubor</string>
			<key>one</key>
			<string>%d soubor</string>`,
    );
    expected = replaceOnce(expected, '<string>%d souborů</string>', '<string>%d souborů!</string>');
    expected = replaceOnce(expected, '\t\t\t<key>zero</key>\n\t\t\t<string>žádné složce</string>\n', '');
    expect(out).toBe(expected);
    expect(readWithPlistlib(Buffer.from(out))).toMatchObject({
      files_count: { files: { zero: 'žádný soubor', other: '%d souborů!' }, folders: { one: '%d složce' } },
    });
  });

  it('adds a category before the first later one and escapes markup', () => {
    expect(write({ update: [update('apples & pears:apples', ['', '<b>%lu</b> jablko', '%lu jablka & <hrušky>', '%lu jablek'])] })).toBe(
      replaceOnce(
        CS_TEXT,
        `			<key>other</key>
			<string><![CDATA[%lu jablek]]></string>`,
        `			<key>few</key>
			<string>%lu jablka &amp; &lt;hrušky&gt;</string>
			<key>other</key>
			<string><![CDATA[%lu jablek]]></string>`,
      ),
    );
  });

  it('appends new entries at the end of the root dict, variables inside their entry', () => {
    const out = write({
      update: [],
      add: [
        update('days', ['%#@days@']),
        update('days:days', ['', '%d den', '%d dny', '%d dní']),
        update('files_count:extra', ['', 'jeden', '', 'mnoho']),
      ],
    });
    let expected = replaceOnce(
      CS_TEXT,
      `			<string>%d složkách</string>
		</dict>
	</dict>`,
      `			<string>%d složkách</string>
		</dict>
		<key>extra</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string></string>
			<key>one</key>
			<string>jeden</string>
			<key>other</key>
			<string>mnoho</string>
		</dict>
	</dict>`,
    );
    expected = replaceOnce(
      expected,
      `	</dict>
</dict>
</plist>`,
      `	</dict>
	<key>days</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>%#@days@</string>
		<key>days</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string></string>
			<key>one</key>
			<string>%d den</string>
			<key>few</key>
			<string>%d dny</string>
			<key>other</key>
			<string>%d dní</string>
		</dict>
	</dict>
</dict>
</plist>`,
    );
    expect(out).toBe(expected);
  });

  it('takes NSStringLocalizedFormatKey of a new entry and NSStringFormatValueTypeKey of an added variable from the template', () => {
    // Weblate copies the template's entry for a key the file lacks (formats.md §2.5): an entry without its
    // format key would mean nothing to Apple's loader.
    const out = write({ update: [update('files_count:files', ['Žádné', '%d soubor', '', '%d souborů'])] }, Buffer.from(STRINGSDICT_NEW_FILE), {
      ...czech,
      template: EN,
    });
    expect(out).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
    <dict>
        <key>files_count</key>
        <dict>
            <key>NSStringLocalizedFormatKey</key>
            <string>%#@files@</string>
            <key>files</key>
            <dict>
                <key>NSStringFormatSpecTypeKey</key>
                <string>NSStringPluralRuleType</string>
                <key>NSStringFormatValueTypeKey</key>
                <string>d</string>
                <key>zero</key>
                <string>Žádné</string>
                <key>one</key>
                <string>%d soubor</string>
                <key>other</key>
                <string>%d souborů</string>
            </dict>
        </dict>
    </dict>
</plist>
`);
  });

  it('removes units, and the whole entry once nothing is left in it', () => {
    const out = write({ update: [], remove: [{ context: 'files_count:folders', source: [] }, { context: 'apples & pears', source: [] }, { context: 'apples & pears:apples', source: [] }] });
    const start = CS_TEXT.indexOf('\t<key>apples &amp; pears</key>');
    const end = CS_TEXT.indexOf('</dict>\n</plist>');
    let expected = CS_TEXT.slice(0, start) + CS_TEXT.slice(end);
    const foldersStart = expected.indexOf('\t\t<key>folders</key>');
    const foldersEnd = expected.indexOf('\t</dict>\n</dict>');
    expected = expected.slice(0, foldersStart) + expected.slice(foldersEnd);
    expect(out).toBe(expected);
  });
});

describe('stringsdict create (formats.md §3.5)', () => {
  it('writes the plist skeleton when there is no base', () => {
    const out = STRINGSDICT_FORMAT.create(null, czech) as Buffer;
    expect(out.toString('utf8')).toBe(STRINGSDICT_NEW_FILE);
    expectXmllintValid(out);
    expect(readWithPlistlib(out) ?? {}).toEqual({});
    expect(STRINGSDICT_FORMAT.parse(out).units).toEqual([]);
  });

  it('from a base keeps the format keys and drops every plural form', () => {
    const out = (STRINGSDICT_FORMAT.create(EN, czech) as Buffer).toString('utf8');
    expectXmllintValid(out);
    expect(out).toBe(
      replaceOnce(
        EN.toString('utf8'),
        `                <string>d</string>
                <key>zero</key>
                <string>No files</string>
                <key>one</key>
                <string>%d file</string>
                <key>other</key>
                <string>%d files</string>`,
        '                <string>d</string>',
      ),
    );
  });
});

describe('stringsdict at 50,000 units', () => {
  it('reads every unit and patches only the edited one', () => {
    const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'];
    for (let index = 0; index < 25_000; index += 1) {
      parts.push(
        `\t<key>k${index}</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@v@</string>\n\t\t<key>v</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d věc ${index}</string>\n\t\t\t<key>other</key>\n\t\t\t<string>%d věcí</string>\n\t\t</dict>\n\t</dict>\n`,
      );
    }
    parts.push('</dict>\n</plist>\n');
    const big = Buffer.from(parts.join(''));
    expect(STRINGSDICT_FORMAT.parse(big, { language: 'cs' }).units).toHaveLength(50_000);
    const edited = STRINGSDICT_FORMAT.write(big, { update: [update('k12000:v', ['', '%d věc', '', '%d věcí'])] }, czech);
    expect(edited.toString('utf8')).toBe(big.toString('utf8').replace('<string>%d věc 12000</string>', '<string>%d věc</string>'));
  });
});
