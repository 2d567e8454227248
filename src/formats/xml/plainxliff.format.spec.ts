import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreWriteContext } from '../store';
import { PLAINXLIFF_FORMAT as plainxliff, POXLIFF_FORMAT as poxliff, XLIFF_FORMAT as xliff } from './xliff.format';
import { expectWellFormedXml } from './xml-test-support';

// Weblate 5.x's `plainxliff` (formats.md §3.2 table, "source (plainxliff)" column): the XLIFF 1.2 files of
// `xliff`, read as plain text (entities decoded, inline markup reduced to its text) with xliff's states,
// approvals and contexts, and no plural groups.

const app = readFileSync(join(process.cwd(), 'src/formats/xml/fixtures/xliff/app.xlf'));
const cs: StoreWriteContext = { languageCode: 'cs', plural: { number: 3, formula: '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2' } };

describe('plainxliff', () => {
  it('is registered under Weblate 5.x\'s id and name', () => {
    expect(plainxliff).toMatchObject({ id: 'plainxliff', name: 'XLIFF 1.2 translation file', kind: 'both', extension: 'xlf' });
  });

  it('reads the xliff units as plain text, with xliff\'s contexts, states and flags', () => {
    const plain = plainxliff.parse(app).units;
    const marked = xliff.parse(app).units;
    expect(plain.map((u) => u.source[0])).toEqual(['Hello', 'Goodbye', 'New & shiny', 'Brand', 'Click here & now', '  two  spaces\n kept ', 'many spaces', 'a < b', 'No original']);
    expect(plain.map((u) => u.target[0])).toEqual(['Ahoj', 'Nashle', 'Nové', 'Brand', 'Klikni sem', '', '', '', '']);
    // Everything but the text is xliff's.
    const rest = ({ source: _s, target: _t, ...other }: (typeof plain)[number]) => other;
    expect(plain.map(rest)).toEqual(marked.map(rest));
  });

  it('keeps a po2xliff plural group as separate units (plurals are poxliff\'s)', () => {
    const plurals = readFileSync(join(process.cwd(), 'src/formats/xml/fixtures/xliff/plurals.xlf'));
    expect(plainxliff.parse(plurals).units.some((u) => u.plural)).toBe(false);
    expect(poxliff.parse(plurals).units.some((u) => u.plural)).toBe(true);
  });

  it('writes plain text escaped, never as markup, with xliff\'s 5.x states', () => {
    const out = plainxliff.write(
      app,
      {
        update: [
          { context: 'app.properties///bye', source: ['Goodbye'], target: ['<b>Na</b> & shle'], state: 'translated' },
          { context: 'greeting.hello', source: ['Hello'], target: ['Nazdar'], state: 'fuzzy' },
        ],
      },
      cs,
    );
    expectWellFormedXml(out);
    expect(out.toString()).toBe(
      app
        .toString()
        .replace('<target state="needs-review-translation">Nashle</target>', '<target state="translated">&lt;b&gt;Na&lt;/b&gt; &amp; shle</target>')
        .replace('<trans-unit id="hello" resname="greeting.hello" approved="yes">', '<trans-unit id="hello" resname="greeting.hello" approved="no">')
        .replace('<target state="final">Ahoj</target>', '<target state="needs-translation">Nazdar</target>'),
    );
    expect(plainxliff.parse(out).units[1].target).toEqual(['<b>Na</b> & shle']);
    expect(plainxliff.write(app, { update: [] }, cs).equals(app)).toBe(true);
  });
});
