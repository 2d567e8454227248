import { Client } from 'pg';
import { hashToChecksum } from '../../src/common/hashing/weblate-hash';
import { LinkBuilder, pathOf } from '../../src/common/links/link-builder';
import { serializeJson } from '../../src/common/serialization/json-writer';
import { formatTimestamp } from '../../src/common/serialization/timestamp';
import { splitPlurals, translationPathSql, unitJsonSql, unitLinkParams, unitLinkSql } from '../../src/modules/units/unit.response';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

// The unit mapper runs in PostgreSQL (unit.response.ts unitFieldsSql): its JSON must be byte for byte what the
// TypeScript rules of the API write — JSON.stringify's escaping and compact form, exact 64-bit hashes, the
// links LinkBuilder builds over pathOf, Weblate's checksum, the timestamp format and the plural fitting of
// Weblate's get_target_plurals (weblate-api.md §9.5). Each case evaluates the mapper over one made-up unit row.

const SEP = '\x1e\x1e';

interface UnitCase {
  source: string;
  target: string;
  pluralNumber: number;
  idHash: bigint;
  timestamp: string;
  project: string;
  component: string;
  language: string;
  note: string;
  sourceUnitId: number | null;
}

const BASE: UnitCase = {
  source: 'Hello',
  target: 'Ahoj',
  pluralNumber: 3,
  idHash: -1480047274163287796n,
  timestamp: '2026-11-28 19:00:00.123456+00',
  project: 'demo',
  component: 'app',
  language: 'cs',
  note: '',
  sourceUnitId: 7,
};

describe('the unit JSON written by PostgreSQL', () => {
  let database: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  /** The mapper's JSON text for `unit` with `links`, and the expected text from the TypeScript rules. */
  async function render(unit: UnitCase, links: LinkBuilder, target: string[]): Promise<{ actual: string; expected: string }> {
    const sql = `WITH u AS (
        SELECT 12::bigint AS id, $1::text AS source, ''::text AS previous_source, $2::text AS target, $3::bigint AS id_hash,
               -5::bigint AS content_hash, 'src/a.c:3'::text AS location, 'k.ey'::text AS context, $4::text AS note,
               'c-format'::text AS flags, ''::text AS extra_flags, 'why'::text AS explanation, 20 AS state, false AS pending,
               4 AS position, true AS has_suggestion, false AS has_comment, true AS has_failing_check, 2 AS num_words,
               $5::bigint AS source_unit_id, 100 AS priority, $6::timestamptz AS timestamp
      )
      SELECT ${unitJsonSql('u', { path: translationPathSql('$7::text', '$8::text', '$9::text'), pluralNumber: '$10::int' }, unitLinkSql(11))}::text AS json FROM u`;
    const params = [unit.source, unit.target, unit.idHash.toString(), unit.note, unit.sourceUnitId, unit.timestamp, unit.project, unit.component, unit.language, unit.pluralNumber, ...unitLinkParams(links)];
    const { rows } = await client.query<{ json: string }>(sql, params);
    const translation = pathOf('translations', unit.project, unit.component, unit.language).slice(1);
    const expected = serializeJson({
      id: 12,
      translation: links.api(`/api/${translation}`),
      source: splitPlurals(unit.source),
      previous_source: '',
      target,
      id_hash: unit.idHash,
      content_hash: -5n,
      location: 'src/a.c:3',
      context: 'k.ey',
      note: unit.note,
      flags: 'c-format',
      extra_flags: '',
      explanation: 'why',
      labels: [],
      state: 20,
      fuzzy: false,
      translated: true,
      approved: false,
      pending: false,
      position: 4,
      has_suggestion: true,
      has_comment: false,
      has_failing_check: true,
      num_words: 2,
      source_unit: links.api(pathOf('api', 'units', unit.sourceUnitId ?? 12)),
      priority: 100,
      web_url: `${links.web(pathOf('translate', unit.project, unit.component, unit.language))}?checksum=${hashToChecksum(unit.idHash)}`,
      url: links.api(pathOf('api', 'units', 12)),
      timestamp: formatTimestamp(unit.timestamp),
    });
    return { actual: rows[0].json, expected };
  }

  const apiLinks = new LinkBuilder('http://h:8000', 'https://site.example', 'api');

  it.each<[string, Partial<UnitCase>, string[]]>([
    ['a singular unit', {}, ['Ahoj']],
    ['an empty singular target', { target: '' }, ['']],
    ['a plural padded to the translation plural', { source: `file${SEP}files`, target: `soubor${SEP}soubory` }, ['soubor', 'soubory', '']],
    ['an empty plural', { source: `file${SEP}files`, target: '' }, ['', '', '']],
    ['a plural cut to the translation plural', { source: `file${SEP}files`, target: `a${SEP}b${SEP}c${SEP}d` }, ['a', 'b', 'c']],
    ['a plural of exactly the translation plural', { source: `file${SEP}files`, target: `a${SEP}b${SEP}c` }, ['a', 'b', 'c']],
    ['a target holding forms under a singular source', { source: 'files', target: `a${SEP}b` }, ['a', 'b', '']],
    ['a plural with no plural number', { source: `file${SEP}files`, target: `a${SEP}b`, pluralNumber: 0 }, ['a', 'b']],
    ['a separator left over', { source: `a${SEP}`, target: `${SEP}\x1e` }, ['', '\x1e', '']],
  ])('fits plurals as Weblate does: %s', async (_name, change, target) => {
    const { actual, expected } = await render({ ...BASE, ...change }, apiLinks, target);
    expect(actual).toBe(expected);
  });

  it.each<[string, LinkBuilder, Partial<UnitCase>]>([
    ['format=api', apiLinks, {}],
    ['no format', new LinkBuilder('http://h:8000', 'https://site.example', null), {}],
    ['a format to escape, a site below a path', new LinkBuilder('http://0', 'https://site.example/sub', 'a&b/0/'), {}],
    ['slugs and a code to encode', apiLinks, { project: 'd é', component: 'a/b?c#d%', language: 'sr@latin' }],
    ['a code of safe punctuation', apiLinks, { language: "x-._~:+$,;=!*'()" }],
    ['a source unit of its own', apiLinks, { sourceUnitId: null }],
  ])('writes the links LinkBuilder writes: %s', async (_name, links, change) => {
    const { actual, expected } = await render({ ...BASE, ...change }, links, ['Ahoj']);
    expect(actual).toBe(expected);
  });

  it.each<[string, bigint]>([
    ['a negative hash', -1480047274163287796n],
    ['a positive hash', 6113453651066291813n],
    ['the smallest hash', -(2n ** 63n)],
    ['the largest hash', 2n ** 63n - 1n],
    ['zero', 0n],
  ])('writes the exact hash and its checksum: %s', async (_name, idHash) => {
    const { actual, expected } = await render({ ...BASE, idHash }, apiLinks, ['Ahoj']);
    expect(actual).toBe(expected);
  });

  it('escapes text as JSON.stringify does', async () => {
    const note = 'q"\\ \x01\x08\x0c\n\r\t\x1f\x7f é\u2028 / 😀 <>&\'';
    const { actual, expected } = await render({ ...BASE, note, target: note }, apiLinks, [note]);
    expect(actual).toBe(expected);
  });

  it('writes timestamps in UTC with microseconds whatever the session time zone', async () => {
    await client.query(`SET TIME ZONE 'Asia/Kolkata'`);
    try {
      for (const timestamp of ['2026-11-28 19:00:00+00', '2026-01-02 03:04:05.6+05:30', '1999-12-31 23:59:59.999999-08']) {
        const { actual, expected } = await render({ ...BASE, timestamp }, apiLinks, ['Ahoj']);
        expect(actual).toBe(expected);
      }
    } finally {
      await client.query('RESET TIME ZONE');
    }
  });
});
