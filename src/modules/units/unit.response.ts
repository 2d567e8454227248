import { ApiProperty } from '@nestjs/swagger';
import { hashToChecksum } from '../../common/hashing/weblate-hash';
import type { LinkBuilder } from '../../common/links/link-builder';
import { encodeSegment, pathOf } from '../../common/links/link-builder';
import { exactInteger, type ExactInteger } from '../../common/serialization/json-writer';
import { formatTimestamp } from '../../common/serialization/timestamp';
import { PLURAL_SEPARATOR } from '../../common/text/word-count';
import { LabelResponse, toLabelResponse, type LabelRow } from '../labels/label.response';
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

/** One row of UNIT_SELECT: the unit plus the slugs its links need, joined in the same query. */
export interface UnitRow {
  id: string;
  translation_id: number;
  source_unit_id: string | null;
  id_hash: string;
  content_hash: string;
  source: string;
  previous_source: string;
  target: string;
  location: string;
  context: string;
  note: string;
  flags: string;
  extra_flags: string;
  explanation: string;
  state: number;
  position: number;
  num_words: number;
  priority: number;
  pending: boolean;
  has_suggestion: boolean;
  has_comment: boolean;
  has_failing_check: boolean;
  timestamp: string;
  /** The unit's own labels as JSON (unitLabelsJson, selected with UNIT_COLUMNS). */
  labels: LabelRow[];
  project_slug: string;
  component_slug: string;
  language_code: string;
  /** Plural forms of the unit's translation (its own plural, else its language's): `target` is fitted to it. */
  plural_number: number;
}

/** The unit's own columns of a UnitRow (without the slugs). */
export const UNIT_COLUMNS = `u.id, u.translation_id, u.source_unit_id, u.id_hash, u.content_hash, u.source, u.previous_source, u.target,
         u.location, u.context, u.note, u.flags, u.extra_flags, u.explanation, u.state, u.position, u.num_words,
         u.priority, u.pending, u.has_suggestion, u.has_comment, u.has_failing_check, u.timestamp, ${unitLabelsJson('u')} AS labels`;

/** UNIT_COLUMNS with the bigint and timestamptz columns as text, for rows read through `to_json`. */
export const UNIT_TEXT_COLUMNS = `u.id::text AS id, u.translation_id, u.source_unit_id::text AS source_unit_id, u.id_hash::text AS id_hash,
         u.content_hash::text AS content_hash, u.source, u.previous_source, u.target, u.location, u.context, u.note, u.flags,
         u.extra_flags, u.explanation, u.state, u.position, u.num_words, u.priority, u.pending, u.has_suggestion,
         u.has_comment, u.has_failing_check, u.timestamp::text AS timestamp, ${unitLabelsJson('u')} AS labels`;

/** Units with their translation, component, project and language, so no item needs another query. */
export const UNIT_SELECT = `
  SELECT ${UNIT_COLUMNS},
         p.slug AS project_slug, c.slug AS component_slug, l.code AS language_code,
         COALESCE(t.plural_number, l.plural_number) AS plural_number
    FROM units u
    JOIN translations t ON t.id = u.translation_id
    JOIN components c ON c.id = t.component_id
    JOIN projects p ON p.id = c.project_id
    JOIN languages l ON l.id = t.language_id`;

/**
 * UNIT_SELECT for the units whose ids a preceding CTE named `page` holds (column `id`). The slugs are looked
 * up per unit of the page (LATERAL; LIMIT 1 keeps the planner from flattening it into a join it could
 * reorder), so however the planner misjudges the small tables, the work grows with the page, not with
 * page × components (issue 10 item 5).
 */
export const UNIT_PAGE_SELECT = `
  SELECT ${UNIT_COLUMNS}, slugs.project_slug, slugs.component_slug, slugs.language_code, slugs.plural_number
    FROM page JOIN units u ON u.id = page.id
   CROSS JOIN LATERAL (
     SELECT p.slug AS project_slug, c.slug AS component_slug, l.code AS language_code,
            COALESCE(t.plural_number, l.plural_number) AS plural_number
       FROM translations t
       JOIN components c ON c.id = t.component_id
       JOIN projects p ON p.id = c.project_id
       JOIN languages l ON l.id = t.language_id
      WHERE t.id = u.translation_id LIMIT 1
   ) slugs`;

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

/**
 * A unit's `target` on the wire (Weblate's PluralField → get_target_plurals): a plural unit (its source or
 * target holds forms) answers exactly `pluralNumber` forms, whatever number its file gave; a singular unit
 * its one text. A file with fewer forms than the translation's plural (an Android `<plurals>` without every
 * quantity, a PO file without `Plural-Forms`) is stored as read and fitted only here and on write-back.
 */
export function targetPlurals(source: string, target: string, pluralNumber: number): string[] {
  const forms = splitPlurals(target);
  if (!source.includes(PLURAL_SEPARATOR) && forms.length === 1) return forms;
  return fitPluralForms(forms, pluralNumber);
}

/**
 * The links of a page's units, from pieces built once per response (docs/performance.md, "Units pages read
 * with the access statement"): a 50-unit page has 150 API links and 50 web links, and each was encoded
 * segment by segment and joined, although all the units of a page but `/api/units/` belong to one
 * translation. The links are byte for byte those of LinkBuilder.api/web over pathOf (link-builder.ts).
 */
export class UnitLinks {
  /** `${origin}/api/units/`, and what follows a unit's id: `/` and the `format` parameter, if any. */
  private readonly unitPrefix: string;
  private readonly unitSuffix: string;
  /** The translation of the previous row and its two links (a page's rows share it, but for `/api/units/`). */
  private project: string | null = null;
  private component = '';
  private language = '';
  private translationUrl = '';
  private webPrefix = '';

  constructor(private readonly links: LinkBuilder) {
    // links.api(path) is the origin, the path, then the `format` parameter (link-builder.ts).
    this.unitPrefix = `${links.origin}/api/units/`;
    this.unitSuffix = `/${links.api('').slice(links.origin.length)}`;
  }

  unit(id: string): string {
    return this.unitPrefix + encodeSegment(id) + this.unitSuffix;
  }

  /** The API link of the row's translation. */
  translation(row: UnitRow): string {
    this.select(row);
    return this.translationUrl;
  }

  /** The row's web link, addressed by the checksum of its id_hash (weblate-api.md §9.1). */
  web(row: UnitRow, idHash: bigint): string {
    this.select(row);
    return `${this.webPrefix}?checksum=${hashToChecksum(idHash)}`;
  }

  private select(row: UnitRow): void {
    if (this.project === row.project_slug && this.component === row.component_slug && this.language === row.language_code) return;
    this.project = row.project_slug;
    this.component = row.component_slug;
    this.language = row.language_code;
    this.translationUrl = this.links.api(pathOf('api', 'translations', row.project_slug, row.component_slug, row.language_code));
    this.webPrefix = this.links.web(pathOf('translate', row.project_slug, row.component_slug, row.language_code));
  }
}

export function toUnitResponse(row: UnitRow, links: LinkBuilder | UnitLinks): UnitResponse {
  const unitLinks = links instanceof UnitLinks ? links : new UnitLinks(links);
  const idHash = BigInt(row.id_hash);
  const state = row.state;
  return {
    id: Number(row.id),
    translation: unitLinks.translation(row),
    source: splitPlurals(row.source),
    previous_source: row.previous_source,
    target: targetPlurals(row.source, row.target, Number(row.plural_number)),
    // Exact integers (json-writer.ts): as bigints, JSON.stringify called their toJSON 400 times per 200-unit page.
    id_hash: exactInteger(idHash),
    content_hash: exactInteger(BigInt(row.content_hash)),
    location: row.location,
    context: row.context,
    note: row.note,
    flags: row.flags,
    extra_flags: row.extra_flags,
    explanation: row.explanation,
    labels: (row.labels ?? []).map(toLabelResponse),
    state,
    // §9.10: fuzzy covers 10–12, translated includes read-only (100), approved is exactly 30.
    fuzzy: state >= 10 && state <= 12,
    translated: state >= 20,
    approved: state === 30,
    pending: row.pending,
    position: row.position,
    has_suggestion: row.has_suggestion,
    has_comment: row.has_comment,
    has_failing_check: row.has_failing_check,
    num_words: row.num_words,
    // Source units are their own source unit (§6.5).
    source_unit: unitLinks.unit(row.source_unit_id ?? row.id),
    priority: row.priority,
    web_url: unitLinks.web(row, idHash),
    url: unitLinks.unit(row.id),
    timestamp: formatTimestamp(row.timestamp)!,
  };
}

/** A page of units, sharing one UnitLinks. */
export function toUnitResponses(rows: readonly UnitRow[], links: LinkBuilder): UnitResponse[] {
  const unitLinks = new UnitLinks(links);
  return rows.map((row) => toUnitResponse(row, unitLinks));
}
