import { hashToChecksum } from '../../common/hashing/weblate-hash';
import { LinkBuilder, pathOf } from '../../common/links/link-builder';
import { fitPluralForms, targetPlurals, toUnitResponse, toUnitResponses, type UnitRow } from './unit.response';

// Weblate's Unit.get_target_plurals (formats.md §2.3, weblate-api.md §9.5): a plural unit's `target` has
// exactly the translation's number of plural forms.

const SEP = '\x1e\x1e';

describe('fitPluralForms', () => {
  it('pads a short list with empty forms', () => {
    expect(fitPluralForms(['a', 'b'], 3)).toEqual(['a', 'b', '']);
  });

  it('cuts a long list to the count', () => {
    expect(fitPluralForms(['a', 'b', 'c', 'd'], 3)).toEqual(['a', 'b', 'c']);
  });

  it('keeps a list of the right length', () => {
    expect(fitPluralForms(['a', 'b'], 2)).toEqual(['a', 'b']);
  });
});

describe('targetPlurals', () => {
  it('answers every form of an empty plural', () => {
    expect(targetPlurals(`file${SEP}files`, '', 3)).toEqual(['', '', '']);
  });

  it('pads a plural stored with fewer forms than the translation has', () => {
    expect(targetPlurals(`file${SEP}files`, `soubor${SEP}soubory`, 3)).toEqual(['soubor', 'soubory', '']);
  });

  it('truncates a plural stored with more forms than the translation has', () => {
    expect(targetPlurals(`file${SEP}files`, `un${SEP}beaucoup${SEP}autres`, 2)).toEqual(['un', 'beaucoup']);
  });

  it('leaves a singular unit as its one text', () => {
    expect(targetPlurals('Hello', '', 3)).toEqual(['']);
    expect(targetPlurals('Hello', 'Ahoj', 3)).toEqual(['Ahoj']);
  });

  it('treats a unit whose target holds forms as plural (Weblate: source or target)', () => {
    expect(targetPlurals('files', `a${SEP}b`, 3)).toEqual(['a', 'b', '']);
  });
});

// UnitLinks builds a page's links from prefixes (docs/performance.md, "Units pages read with the access
// statement"); they must be exactly LinkBuilder's over pathOf, whatever the format and the slugs.
describe('toUnitResponses', () => {
  const row = (id: string, project: string, component: string, language: string): UnitRow => ({
    id,
    translation_id: 1,
    source_unit_id: id === '7' ? null : '7',
    id_hash: '-1480047274163287796',
    content_hash: '5619856043225438049',
    source: 'Hello',
    previous_source: '',
    target: '',
    location: '',
    context: 'k',
    note: '',
    flags: '',
    extra_flags: '',
    explanation: '',
    state: 0,
    position: 1,
    num_words: 1,
    priority: 100,
    pending: false,
    has_suggestion: false,
    has_comment: false,
    has_failing_check: false,
    timestamp: '2026-11-28 19:00:00.123456+00',
    labels: [{ id: 3, name: 'Needs review', description: '', color: 'red' }],
    project_slug: project,
    component_slug: component,
    language_code: language,
    plural_number: 2,
  });
  const rows = [row('7', 'demo', 'app', 'cs'), row('8', 'demo', 'app', 'cs'), row('9', 'd é', 'a/b', 'sr@latin'), row('10', 'demo', 'app', 'cs')];

  it.each([
    ['format=api', new LinkBuilder('http://h:8000', 'https://site.example', 'api')],
    ['no format', new LinkBuilder('http://h:8000', 'https://site.example', null)],
    ['a format to escape', new LinkBuilder('http://0', 'https://site.example/sub', 'a&b/0/')],
  ])('writes the links LinkBuilder writes (%s), for rows of several translations', (_name, links) => {
    const responses = toUnitResponses(rows, links);
    rows.forEach((r, index) => {
      const response = responses[index];
      expect(response).toEqual(toUnitResponse(r, links));
      expect(response.translation).toBe(links.api(pathOf('api', 'translations', r.project_slug, r.component_slug, r.language_code)));
      expect(response.url).toBe(links.api(pathOf('api', 'units', r.id)));
      expect(response.source_unit).toBe(links.api(pathOf('api', 'units', r.source_unit_id ?? r.id)));
      expect(response.web_url).toBe(`${links.web(pathOf('translate', r.project_slug, r.component_slug, r.language_code))}?checksum=${hashToChecksum(BigInt(r.id_hash))}`);
    });
  });
});
