import { JSON_NESTED_FILE_FORMAT } from '../formats/json-family/json.format';
import { PLURAL_SEPARATOR, type StoreUnit } from '../formats/store';
import { bilingualDrafts, bilingualStrings, mapInSlices, sourceDrafts, stateRules, templateStrings, translationDrafts, unitsByContext } from './unit-drafts';

const JSON_NESTED_FORMAT = { parse: (content: Buffer) => JSON_NESTED_FILE_FORMAT.parse(content).units };
const RULES = stateRules('json-nested', true);

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

  it('counts characters as code points', () => {
    const [accented] = templateStrings(JSON_NESTED_FORMAT.parse(Buffer.from('{"errors":{"network":{"timeout":"Zpráva – čas vypršel"}}}')), 'en');
    expect(accented).toMatchObject({
      context: 'errors.network.timeout',
      idHash: '6869293640914731514',
      contentHash: '4345228016189828435',
      numChars: 20,
      numWords: 4,
      location: '',
      note: '',
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
    const drafts = translationDrafts(strings, file, RULES);
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
    expect(await mapInSlices(strings, (slice) => translationDrafts(slice, byContext, RULES), 2)).toEqual(translationDrafts(strings, file, RULES));
  });
});

// Bilingual files (formats.md §2.1, §2.2): units are the file's own entries, hashed by source + context.
describe('bilingual drafts', () => {
  const entry = (overrides: Partial<StoreUnit>): StoreUnit => ({
    context: '', source: ['Hello'], target: [''], plural: false, note: '', location: '', flags: '', previousSource: '',
    fuzzy: false, approved: false, readOnly: false, position: 1, line: 1, ...overrides,
  });
  const file = [
    entry({ source: ['Hello'], target: ['Ahoj'], note: 'Greeting', location: 'main.c:1', flags: 'c-format' }),
    entry({ context: 'menu', source: ['File'], target: ['Soubor'], fuzzy: true, previousSource: 'Files', position: 2 }),
    entry({ source: ['%d file', '%d files'], target: ['%d soubor', '%d soubory', '%d souborů'], plural: true, approved: true, position: 3 }),
    entry({ source: ['Empty'], target: ['', ''], position: 4 }),
    entry({ source: ['Locked'], target: ['Zamčeno'], readOnly: true, position: 5 }),
  ];

  it('hashes source + context and keeps notes, locations and flags', () => {
    const [hello, menu] = bilingualStrings(file, 'en');
    expect(hello).toMatchObject({ context: '', source: 'Hello', note: 'Greeting', location: 'main.c:1', flags: 'c-format' });
    expect(hello.idHash).toBe(hello.contentHash);
    expect(menu.idHash).not.toBe(bilingualStrings([entry({ context: '', source: ['File'] })], 'en')[0].idHash);
  });

  it('maps fuzzy, approved (with review), empty and read-only to Weblate states; plural forms joined', () => {
    const drafts = bilingualDrafts(file, 'en', stateRules('po', true));
    expect(drafts.map((draft) => [draft.source, draft.target, draft.fileState, draft.filePreviousSource])).toEqual([
      ['Hello', 'Ahoj', 20, ''],
      ['File', 'Soubor', 10, 'Files'],
      [`%d file${PLURAL_SEPARATOR}%d files`, ['%d soubor', '%d soubory', '%d souborů'].join(PLURAL_SEPARATOR), 30, ''],
      ['Empty', '', 0, ''],
      ['Locked', 'Zamčeno', 100, ''],
    ]);
    expect(bilingualDrafts(file, 'en', stateRules('po', false))[2].fileState).toBe(20);
  });

  it('combines a template note with a different translation note (template first)', () => {
    const strings = templateStrings([entry({ context: 'k', source: [], target: ['Key'], note: 'From template' })], 'en');
    const [draft] = translationDrafts(strings, [entry({ context: 'k', source: [], target: ['Klíč'], note: 'From file' })], RULES);
    expect(draft).toMatchObject({ note: 'From template\nFrom file', target: 'Klíč', source: 'Key', fileState: 20 });
  });
});
