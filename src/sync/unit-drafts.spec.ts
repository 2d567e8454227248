import { JSON_NESTED_FORMAT } from '../formats/json-nested.format';
import { mapInSlices, sourceDrafts, templateStrings, translationDrafts, unitsByContext } from './unit-drafts';

// The worked example of languages-formats-hashing.md §2.2 (template sources/main.json).
const TEMPLATE = Buffer.from(
  '{"app":{"title":"Weblate","greeting":"Hello, {name}!"},"cart":{"items":"{count} items in cart"},"list":["First","Second"]}',
);

describe('templateStrings', () => {
  const strings = templateStrings(JSON_NESTED_FORMAT.parse(TEMPLATE), 'en');

  it('derives context, hashes, position and word count as in the reference table', () => {
    expect(strings.map(({ position, context, source, idHash, contentHash, numWords }) => ({
      position, context, source, idHash, contentHash, numWords,
    }))).toEqual([
      { position: 1, context: 'app.title', source: 'Weblate', idHash: '-6717303852330811496', contentHash: '-95846635629574223', numWords: 1 },
      { position: 2, context: 'app.greeting', source: 'Hello, {name}!', idHash: '-6722914994396313773', contentHash: '2877657794238324096', numWords: 2 },
      { position: 3, context: 'cart.items', source: '{count} items in cart', idHash: '1816141635243407310', contentHash: '307477479833810214', numWords: 4 },
      { position: 4, context: 'list[0]', source: 'First', idHash: '-4384817994132090469', contentHash: '-271234623273053001', numWords: 1 },
      { position: 5, context: 'list[1]', source: 'Second', idHash: '2687294331881052410', contentHash: '1212373771198498151', numWords: 1 },
    ]);
  });

  it('counts characters as code points and keeps the structured location', () => {
    const [accented] = templateStrings(JSON_NESTED_FORMAT.parse(Buffer.from('{"errors":{"network":{"timeout":"Zpráva – čas vypršel"}}}')), 'en');
    expect(accented).toMatchObject({
      context: 'errors.network.timeout',
      idHash: '6869293640914731514',
      contentHash: '4345228016189828435',
      numChars: 20,
      numWords: 4,
      location: { path: [{ key: 'errors' }, { key: 'network' }, { key: 'timeout' }], valueType: 'string' },
    });
  });
});

describe('drafts', () => {
  const strings = templateStrings(JSON_NESTED_FORMAT.parse(TEMPLATE), 'en');

  it('makes the source translation read-only with target = source', () => {
    const drafts = sourceDrafts(strings);
    expect(drafts.every((draft) => draft.fileState === 100 && draft.target === draft.source)).toBe(true);
  });

  it('takes targets by context from the translation file, empty when missing', () => {
    const file = JSON_NESTED_FORMAT.parse(Buffer.from('{"list":[null,"Druhý"],"app":{"title":"Weblate"},"extra":"x"}'));
    const drafts = translationDrafts(strings, file);
    expect(drafts.map((draft) => [draft.context, draft.target, draft.fileState])).toEqual([
      ['app.title', 'Weblate', 20],
      ['app.greeting', '', 0],
      ['cart.items', '', 0],
      ['list[0]', '', 0],
      ['list[1]', 'Druhý', 20],
    ]);
    // Hashes and positions always come from the template.
    expect(drafts[4]).toMatchObject({ idHash: '2687294331881052410', position: 5, source: 'Second' });
  });

  it('maps in slices with the same result as in one piece', async () => {
    const file = JSON_NESTED_FORMAT.parse(Buffer.from('{"list":[null,"Druhý"],"app":{"title":"Weblate"}}'));
    const byContext = unitsByContext(file);
    expect(await mapInSlices(strings, (slice) => translationDrafts(slice, byContext), 2)).toEqual(translationDrafts(strings, file));
  });
});
