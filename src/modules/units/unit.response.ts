import { ApiProperty } from '@nestjs/swagger';
import { versionColumn } from '../../common/auth/read-with-access';
import type { LinkBuilder } from '../../common/links/link-builder';
import type { ExactInteger } from '../../common/serialization/json-writer';
import { PLURAL_SEPARATOR } from '../../common/text/word-count';
import { LabelResponse } from '../labels/label.response';
import { unitLabelsJson } from '../labels/unit-labels';

/** A unit on the wire, fields in the spec's order (api-spec.md "Unit"; the spec's order wins over §6.5). */
export class UnitResponse {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'API URL of the owning translation' }) translation: string;
  @ApiProperty({ type: [String], description: 'One element per plural form' }) source: string[];
  @ApiProperty() previous_source: string;
  @ApiProperty({ type: [String] }) target: string[];
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Signed 64-bit hash (weblate-api.md §9.2)' }) id_hash: ExactInteger;
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Signed 64-bit hash (weblate-api.md §9.3)' }) content_hash: ExactInteger;
  @ApiProperty() location: string;
  @ApiProperty({ description: 'Key of the string (JSON keys joined with dots)' }) context: string;
  @ApiProperty() note: string;
  @ApiProperty() flags: string;
  @ApiProperty() extra_flags: string;
  @ApiProperty() explanation: string;
  @ApiProperty({ type: [LabelResponse], description: "The unit's own labels (5.3+ objects); source units carry them (weblate-api.md §6.5)" }) labels: LabelResponse[];
  @ApiProperty({ description: '0 empty, 10 needs editing, 20 translated, 30 approved, 100 read-only' }) state: number;
  @ApiProperty() fuzzy: boolean;
  @ApiProperty() translated: boolean;
  @ApiProperty() approved: boolean;
  @ApiProperty() pending: boolean;
  @ApiProperty({ description: '1-based position in the translation' }) position: number;
  @ApiProperty() has_suggestion: boolean;
  @ApiProperty() has_comment: boolean;
  @ApiProperty() has_failing_check: boolean;
  @ApiProperty() num_words: number;
  @ApiProperty({ description: 'API URL of the source-language unit' }) source_unit: string;
  @ApiProperty() priority: number;
  @ApiProperty({ description: 'Translation page addressed by checksum' }) web_url: string;
  @ApiProperty() url: string;
  @ApiProperty({ description: 'ISO 8601 UTC with microseconds' }) timestamp: string;
}

/** The write representation PUT/PATCH answer with (weblate-api.md §6.5, §10.2). */
export class UnitWriteResponse {
  @ApiProperty({ type: [String] }) target: string[];
  @ApiProperty() state: number;
  @ApiProperty() explanation: string;
  @ApiProperty() extra_flags: string;
  @ApiProperty({ type: [Number], description: 'Label ids' }) labels: number[];
}

/**
 * Where a unit's links start, as SQL expressions over the statement's parameters (unitLinkParams gives their
 * values): the API origin, what API links end with (`?format=api` or nothing) and SITE_URL for web links,
 * the pieces LinkBuilder.api and LinkBuilder.web join (link-builder.ts).
 */
export interface UnitLinkSql {
  origin: string;
  apiSuffix: string;
  site: string;
}

/** UnitLinkSql over the parameters `$first`, `$first + 1`, `$first + 2`. */
export const unitLinkSql = (first: number): UnitLinkSql => ({ origin: `$${first}::text`, apiSuffix: `$${first + 1}::text`, site: `$${first + 2}::text` });

/** The values of UnitLinkSql's parameters for one response's links, in order. */
export const unitLinkParams = (links: LinkBuilder): [string, string, string] => [links.origin, links.api('').slice(links.origin.length), links.web('')];

/** The characters encodeSegment leaves as they are (link-builder.ts SAFE_SEGMENT), as a PostgreSQL bracket expression. */
const SAFE_SEGMENT_CHARS = `[-A-Za-z0-9._~@:+$,;=!*''()]`;

/**
 * encodeSegment in SQL: the value itself when every character is safe (slugs always are, language codes nearly
 * always), else glossa_url_segment's encoding (migration UrlSegmentFunction).
 */
const urlSegmentSql = (value: string): string => `CASE WHEN ${value} ~ '^${SAFE_SEGMENT_CHARS}*$' THEN ${value} ELSE glossa_url_segment(${value}) END`;

/**
 * A translation's path below `/api/translations/` and `/translate/` (`project/component/language/`, encoded as
 * pathOf encodes it), from SQL expressions of its slugs and language code. Computed once per translation where
 * a statement can (a page's units share it).
 */
export const translationPathSql = (projectSlug: string, componentSlug: string, languageCode: string): string =>
  `${urlSegmentSql(projectSlug)} || '/' || ${urlSegmentSql(componentSlug)} || '/' || ${urlSegmentSql(languageCode)} || '/'`;

/** PLURAL_SEPARATOR (two U+001E) as a PostgreSQL literal; test/e2e/unit-json.e2e-spec.ts splits with both. */
const SEPARATOR_SQL = "E'\\x1e\\x1e'";

/** The plural forms of a stored text (splitPlurals): `""` is `[""]`, where string_to_array would give `[]`. */
const pluralFormsSql = (text: string): string => `CASE WHEN ${text} = '' THEN ARRAY['']::text[] ELSE string_to_array(${text}, ${SEPARATOR_SQL}) END`;

/**
 * A unit's `target` on the wire (Weblate's PluralField → get_target_plurals): a plural unit (its source or
 * target holds forms) answers exactly `pluralNumber` forms (fitPluralForms: cut, or padded with ""), whatever
 * number its file gave, unless that is below 1; a singular unit its one text. A file with fewer forms than the
 * translation's plural (an Android `<plurals>` without every quantity, a PO file without `Plural-Forms`) is
 * stored as read and fitted only here and on write-back.
 */
function targetSql(u: string, pluralNumber: string): string {
  // No subquery: a statement that writes units' JSON may be planned per request (an unnamed search page).
  const forms = `(${pluralFormsSql(`${u}.target`)})`;
  const count = `(${pluralNumber})::int`;
  return `CASE WHEN strpos(${u}.source, ${SEPARATOR_SQL}) = 0 AND strpos(${u}.target, ${SEPARATOR_SQL}) = 0 THEN ARRAY[${u}.target]
    WHEN ${count} < 1 OR ${count} = cardinality(${forms}) THEN ${forms}
    WHEN cardinality(${forms}) > ${count} THEN ${forms}[1:${count}]
    ELSE ${forms} || array_fill(''::text, ARRAY[${count} - cardinality(${forms})]) END`;
}

/** A timestamptz as the API writes it (formatTimestamp): UTC, six fractional digits, `Z`. */
const timestampSql = (value: string): string => `to_char(${value} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The unit mapper: every wire field of UnitResponse in order, as the SQL that computes it from the unit row
 * `u`, its translation's path (translationPathSql) and plural number, and the response's link pieces. It runs
 * in PostgreSQL, so a page of units reaches Node as one JSON text that is written as it is (RawJson), instead
 * of rows parsed into objects, mapped and serialized again: that was most of a units page's and a search's
 * Node time and of its garbage (issues 13 and 15, docs/performance.md "Unit JSON from PostgreSQL").
 * PostgreSQL's row_to_json writes compact JSON and escapes strings exactly as JSON.stringify does (control
 * characters as `\u00xx`, everything else as UTF-8), bigints as their digits (id_hash and content_hash exceed
 * 2^53) and booleans as `true`/`false`; test/e2e/unit-json.e2e-spec.ts compares it with the TypeScript rules
 * of the API (splitPlurals, fitPluralForms, hashToChecksum, formatTimestamp, LinkBuilder over pathOf).
 */
export function unitFieldsSql(u: string, translation: { path: string; pluralNumber: string }, links: UnitLinkSql): ReadonlyArray<readonly [keyof UnitResponse, string]> {
  const api = (path: string): string => `${links.origin} || ${path} || ${links.apiSuffix}`;
  // Weblate's checksum is the unsigned hash in hex: flipping the sign bit adds 2^63 (weblate-hash.ts hashToChecksum).
  const checksum = `lpad(to_hex(${u}.id_hash # (-9223372036854775807 - 1)), 16, '0')`;
  return [
    ['id', `${u}.id`],
    ['translation', api(`'/api/translations/' || ${translation.path}`)],
    ['source', pluralFormsSql(`${u}.source`)],
    ['previous_source', `${u}.previous_source`],
    ['target', targetSql(u, translation.pluralNumber)],
    ['id_hash', `${u}.id_hash`],
    ['content_hash', `${u}.content_hash`],
    ['location', `${u}.location`],
    ['context', `${u}.context`],
    ['note', `${u}.note`],
    ['flags', `${u}.flags`],
    ['extra_flags', `${u}.extra_flags`],
    ['explanation', `${u}.explanation`],
    // The unit's own labels (weblate-api.md §6.5: source units carry them).
    ['labels', unitLabelsJson(u)],
    ['state', `${u}.state`],
    // §9.10: fuzzy covers 10–12, translated includes read-only (100), approved is exactly 30.
    ['fuzzy', `${u}.state BETWEEN 10 AND 12`],
    ['translated', `${u}.state >= 20`],
    ['approved', `${u}.state = 30`],
    ['pending', `${u}.pending`],
    ['position', `${u}.position`],
    ['has_suggestion', `${u}.has_suggestion`],
    ['has_comment', `${u}.has_comment`],
    ['has_failing_check', `${u}.has_failing_check`],
    ['num_words', `${u}.num_words`],
    // Source units are their own source unit (§6.5).
    ['source_unit', api(`'/api/units/' || COALESCE(${u}.source_unit_id, ${u}.id) || '/'`)],
    ['priority', `${u}.priority`],
    // The translation page addressed by the checksum of id_hash (weblate-api.md §9.1).
    ['web_url', `${links.site} || '/translate/' || ${translation.path} || '?checksum=' || ${checksum}`],
    ['url', api(`'/api/units/' || ${u}.id || '/'`)],
    ['timestamp', timestampSql(`${u}.timestamp`)],
  ];
}

/** unitFieldsSql as one SQL expression: the unit's compact JSON object (type json). */
export function unitJsonSql(u: string, translation: { path: string; pluralNumber: string }, links: UnitLinkSql): string {
  const fields = unitFieldsSql(u, translation, links).map(([key, sql]) => `${sql} AS "${key}"`);
  return `(SELECT row_to_json(wire) FROM (SELECT ${fields.join(', ')}) wire)`;
}

/**
 * The unit `u`'s translation path and plural as the LATERAL `tr` the unit JSON reads (unitJsonSql). Looked up
 * per unit (LIMIT 1 keeps the planner from flattening it into a join it could reorder, and Memoize reads each
 * translation once), so however the planner misjudges the small tables, the work grows with the units read,
 * not with units × components (issue 10 item 5). Its ids are the unit's scope (unitsByIdSql `detail`); with
 * `versions`, also the `xmin` of the translation, component, project and language rows (UNIT_VERSION_COLUMN).
 */
const translationOfUnit = (versions = false): string => `CROSS JOIN LATERAL (
     SELECT ${translationPathSql('p.slug', 'c.slug', 'l.code')} AS path, COALESCE(t.plural_number, l.plural_number) AS plural_number,
            c.project_id, t.component_id, t.language_id${versions ? ', t.xmin AS t_xmin, c.xmin AS c_xmin, p.xmin AS p_xmin, l.xmin AS l_xmin' : ''}
       FROM translations t
       JOIN components c ON c.id = t.component_id
       JOIN projects p ON p.id = c.project_id
       JOIN languages l ON l.id = t.language_id
      WHERE t.id = u.translation_id LIMIT 1
   ) tr`;
const TRANSLATION_OF_UNIT = translationOfUnit();

/**
 * The version of the rows a unit's JSON is built from (DetailRead.version), over `u` and its `translationOfUnit(true)`:
 * the unit's columns, and the translation's path and plural. Its labels are named by the unit's own row, which every
 * write of its labels touches (unit-labels.ts editUnitLabels, labels.service.ts remove; labels are never edited in
 * place), as the units page's entity tag relies on too (units-read.service.ts densePage).
 */
const UNIT_VERSION_COLUMN = versionColumn('u.xmin', 'tr.t_xmin', 'tr.c_xmin', 'tr.p_xmin', 'tr.l_xmin');

/**
 * The unit `$n` names, its project, component and language and the version of its rows (UNIT_VERSION_COLUMN), the
 * same expression the detail's body row carries (unitsByIdSql `detail`), so the two statements name one version.
 */
export const unitVersionSql = (n: number): string =>
  `SELECT tr.project_id, tr.component_id, tr.language_id, ${UNIT_VERSION_COLUMN} FROM units u ${translationOfUnit(true)} WHERE u.id = $${n}`;

const UNIT_JSON_OF_TR = (links: UnitLinkSql): string => unitJsonSql('u', { path: 'tr.path', pluralNumber: 'tr.plural_number' }, links);

/**
 * The units a preceding CTE named `page` holds (column `id`) as one compact JSON array text, in `orderBy`
 * (over the alias `u`), '[]' for none.
 */
export function unitPageJsonSql(orderBy: string, links: UnitLinkSql): string {
  return `(SELECT COALESCE('[' || string_agg(${UNIT_JSON_OF_TR(links)}::text, ',' ORDER BY ${orderBy}) || ']', '[]')
      FROM page JOIN units u ON u.id = page.id ${TRANSLATION_OF_UNIT})`;
}

/**
 * The JSON text of the units `u.id ${idCondition}` names (e.g. `= $1`), one row each: `id` and `unit_json`.
 * `detail`: also the unit's `project_id`, `component_id` and `language_id` (DetailRead.selectsScope) and the
 * version `v` of its rows (unitVersionColumn), for the auth guard's statement (UNIT_DETAIL_READ).
 */
export function unitsByIdSql(idCondition: string, links: UnitLinkSql, detail = false): string {
  const extra = detail ? ` tr.project_id, tr.component_id, tr.language_id, ${UNIT_VERSION_COLUMN},` : '';
  return `SELECT u.id::text AS id,${extra} ${UNIT_JSON_OF_TR(links)}::text AS unit_json
    FROM units u ${translationOfUnit(detail)}
   WHERE u.id ${idCondition}`;
}

/** Plural forms as the API shows them (weblate-api.md §9.5): `""` is `[""]`. */
export const splitPlurals = (text: string): string[] => text.split(PLURAL_SEPARATOR);

/**
 * `forms` fitted to `count` plural forms: padded with "" when short, cut when long (Weblate's
 * Unit.get_target_plurals, formats.md §2.3; weblate-api.md §9.5: a plural `target` has as many elements as
 * the translation's plural, so an empty plural is `["", "", …]`).
 */
export function fitPluralForms(forms: readonly string[], count: number): string[] {
  if (count < 1 || forms.length === count) return [...forms];
  if (forms.length > count) return forms.slice(0, count);
  return [...forms, ...Array.from({ length: count - forms.length }, () => '')];
}
