// The fields of Weblate's unit search (checks-suggestions-search.md §7.4-§7.7), each compiled to a
// parameterised SQL condition over the `units u` alias. User text only ever travels as a parameter.
//
// EXTENSION POINT: checks, suggestions, comments and screenshots are features whose tables other
// modules own. Their fields (`check:`, `dismissed_check:`, `suggestion:`, `suggestion_author:`, `comment:`,
// `resolved_comment:`, `comment_author:`, `source_comment*:`, `screenshot:`) and
// `has:` values are parsed fully here and registered with a default that answers what Weblate answers when
// the feature holds no data: nothing matches. A module that adds the table replaces the default with
// registerUnitSearchField() / registerHasLookup() at start-up (e.g. in its module's constructor); nothing else
// in the search changes. Labels (`label:`, `has:label`, `labels_count:`) are compiled here directly over the
// tables of src/modules/labels.

import { ACTION_SOURCE_CHANGE, actionName, CONTENT_CHANGE_ACTIONS as CONTENT_ACTIONS, knownActions } from '../../changes/change-actions';
import { parseSearchDate } from './search-dates';
import { SearchQueryError, type SearchTerm } from './search-parser';

export interface SearchContext {
  /** Appends a parameter and answers its placeholder. */
  param(value: unknown): string;
  /** "Now" for relative dates (one clock reading per query). */
  now: Date;
  /** Set when the condition evaluates a regular expression (it then runs under the regex time limit). */
  usesRegex: boolean;
  /**
   * The `source:`/`context:` terms met so far, in the query's order: the condition over `sx` that finds the
   * units holding their own matching text, as its own statement (OwnTextLookup).
   */
  ownTextLookups: OwnTextLookup[];
  /**
   * The ids those statements found (OwnTextIds: comma-separated), by the same index, when the caller read
   * them first (null: more than OWN_TEXT_IDS_CAP, or not read). Absent: compile every term in its
   * one-statement form.
   */
  ownTextIds?: ReadonlyArray<OwnTextIds | null>;
  /**
   * Set by a caller whose query is one `source:`/`context:` term (search-compiler.ts ownTextUnion): the term
   * then also writes its pieces to `ownTextUnion`, for one statement that finds the own-text units itself.
   */
  wantsOwnTextUnion?: boolean;
  /** Written by that term (wantsOwnTextUnion). */
  ownTextUnion?: OwnTextUnion;
}

/**
 * A `source:`/`context:` term in pieces, for a statement that reads the units holding their own matching text
 * once (a MATERIALIZED CTE, at most OWN_TEXT_IDS_CAP + 1 of them) and finds the other matching units through
 * those ids (matching-units.ts ownTextUnionFrom). Its text parameter is the same in every piece.
 */
export interface OwnTextUnion {
  /** The units holding their own matching text, as a condition over the alias `sx`. */
  own: string;
  /** The other units whose source unit is one of `ids` (a bigint[] expression), as a condition over `u`. */
  linked(ids: string): string;
  /** The whole term as one condition over `u` (the semi-join), for when `own` finds more than the cap. */
  whole: string;
}

/**
 * A statement of its own (`sql` with `params` as $1…) answering, in one row, the units that hold their own
 * source/context text and match one term, at most OWN_TEXT_IDS_CAP + 1 of them: how many (`found`) and their
 * ids (`ids`, OwnTextIds).
 */
export interface OwnTextLookup {
  sql: string;
  params: unknown[];
}

/**
 * Unit ids as one comma-separated text, as the lookup writes them and the search's statement reads them
 * (`string_to_array(…)::bigint[]`, which a custom plan folds into the constant array the planner hashes): 500
 * ids were 500 rows for Node to parse and an array to write back as text (issue 13, docs/performance.md "Unit
 * JSON from PostgreSQL").
 */
export type OwnTextIds = string;

/**
 * Up to how many own-text units a `source:`/`context:` term is answered from their ids read first
 * (docs/performance.md, "Indexed search, session 8"). The ids then travel as one array parameter, which the
 * planner hashes as a constant; a broader term keeps the one-statement semi-join.
 */
export const OWN_TEXT_IDS_CAP = 2000;

export type FieldCompiler = (term: SearchTerm, context: SearchContext) => string;
/** A `has:`/`is:` lookup: a condition over `u`. */
export type LookupCompiler = (context: SearchContext) => string;

/** A unit's source string row (source units are their own source). */
const SOURCE = (column: string): string => `(SELECT su.${column} FROM units su WHERE su.id = COALESCE(u.source_unit_id, u.id))`;

const escapeLike = (value: string): string => value.replace(/[\\%_]/g, '\\$&');

/** The searched text of a term: on text fields comparison operators are part of it (`target:<b>`, §7.2). */
function literal(term: SearchTerm): string {
  const { value, operator } = term;
  const text = value.kind === 'text' ? value.text : value.kind === 'range' ? `[${value.from} to ${value.to}]` : value.pattern;
  return operator === ':' || operator === ':=' ? text : operator.slice(1) + text;
}

function regex(expression: string, term: SearchTerm, context: SearchContext): string | null {
  if (term.value.kind !== 'regex') return null;
  context.usesRegex = true;
  // PostgreSQL's advanced regular expressions; `(?i)` at the start is its own embedded option (§7.2).
  return `${expression} ~ ${context.param(term.value.pattern)}`;
}

/** Text fields: case-insensitive substring, `:=` case-sensitive exact, `r"…"` regular expression. */
export function textLookup(expression: string): FieldCompiler {
  return (term, context) => {
    const pattern = regex(expression, term, context);
    if (pattern) return pattern;
    if (term.operator === ':=') return `${expression} = ${context.param(literal(term))}`;
    return `${expression} ILIKE ${context.param(`%${escapeLike(literal(term))}%`)}`;
  };
}

/** The predicate of the partial source and context trigram indexes, over `alias`. */
const HOLDS_OWN_TEXT = (alias: string): string => `${alias}.source_unit_id IS NULL OR ${alias}.source_unit_id = ${alias}.id OR ${alias}.source_differs`;

/**
 * Units whose own source/context meets `condition` (written over the alias `sx`), optionally united with the
 * ids of `extra`. The trigram indexes of source and context are partial (migration SourceTrigramsOnSourceUnits):
 * they hold the rows that carry their own text, which are searched directly; every other unit has its source
 * unit's source and context (the invariant that migration documents), so it matches when its source unit
 * does and is reached through `source_unit_id`. One `u.id IN (…)` keeps the whole term a semi-join the planner
 * can drive from the index, and gives exactly the units that `condition` on their own columns would.
 */
function unitsWithOwnOrSourceText(condition: string, extra?: string): string {
  return `u.id IN (SELECT sx.id FROM units sx WHERE (${HOLDS_OWN_TEXT('sx')}) AND ${condition}
     UNION ALL SELECT dx.id FROM units sx JOIN units dx ON dx.source_unit_id = sx.id
      WHERE (${HOLDS_OWN_TEXT('sx')}) AND dx.id <> sx.id AND NOT dx.source_differs AND ${condition}${extra ? `
     UNION ALL ${extra}` : ''})`;
}

/** Where ownTextUnion has the term write its text's parameter, replaced afterwards (a NUL never reaches SQL). */
const TEXT_SLOT = '\u0000text\u0000';

/**
 * A text field of the source string (source, context): textLookup applied through unitsWithOwnOrSourceText.
 * When the caller read the own-text units' ids first (SearchContext.ownTextIds, at most OWN_TEXT_IDS_CAP), the
 * same units are a condition on the unit itself instead: its own text matches (the partial trigram index), or
 * its source unit is one of those ids (the source_unit_id index, the ids as one constant array, which
 * PostgreSQL hashes). That is a BitmapOr of two index scans instead of the semi-join's primary-key probe per
 * unit and source_unit_id probe with heap visit per source unit (about a third of the buffers for
 * `source:"lantern"`). The `IS NOT NULL` keeps the condition two-valued, so `NOT source:…` stays exact.
 */
function throughSourceUnits(column: 'source' | 'context'): FieldCompiler {
  const ownText = textLookup(`sx.${column}`);
  const onUnit = textLookup(`u.${column}`);
  return (term, context) => {
    const index = context.ownTextLookups.length;
    const lookupParams: unknown[] = [];
    const lookupContext: SearchContext = { ...context, ownTextLookups: [], param: (value) => `$${lookupParams.push(value)}` };
    const condition = ownText(term, lookupContext);
    context.usesRegex ||= lookupContext.usesRegex;
    context.ownTextLookups.push({
      sql: `SELECT count(*)::int AS found, COALESCE(string_agg(own.id::text, ','), '') AS ids
              FROM (SELECT sx.id FROM units sx WHERE (${HOLDS_OWN_TEXT('sx')}) AND ${condition} LIMIT ${OWN_TEXT_IDS_CAP + 1}) own`,
      params: lookupParams,
    });
    if (context.wantsOwnTextUnion) return ownTextUnion(term, context, ownText);
    const ids = context.ownTextIds?.[index];
    if (ids === undefined || ids === null) return unitsWithOwnOrSourceText(ownText(term, context));
    const own = onUnit(term, context);
    // The second branch is exactly "not holding its own text" (HOLDS_OWN_TEXT negated), so the two never overlap.
    return `(((${HOLDS_OWN_TEXT('u')}) AND ${own})
      OR (${linkedToSourceUnits(`string_to_array(${context.param(ids)}::text, ',')::bigint[]`)}))`;
  };
}

/** The units other than `ids` (a bigint[] expression) that take their text from one of them. */
const linkedToSourceUnits = (ids: string): string =>
  `u.source_unit_id IS NOT NULL AND u.source_unit_id = ANY(${ids}) AND u.id <> u.source_unit_id AND NOT u.source_differs`;

/**
 * The term as OwnTextUnion (context.ownTextUnion); answers its whole condition. Its text hides from the plan (an
 * initplan's output) unless it is a regular expression: each piece has an index that answers it whatever the
 * text (the partial trigram index; IDX_units_linked_to_source for the ids), and with the text hidden the
 * statement is planned once per connection instead of per request (units-read.service.ts page; about 1 ms of
 * the 5 of a `source:"word"` search, docs/performance.md "Unit JSON from PostgreSQL"). A regular expression
 * keeps its value in sight (its statement runs unnamed, under the regex time limit).
 */
function ownTextUnion(term: SearchTerm, context: SearchContext, ownText: FieldCompiler): string {
  let textParameter = '';
  const slotted = ownText(term, Object.assign(Object.create(context) as SearchContext, { param: (value: unknown) => ((textParameter = context.param(value)), TEXT_SLOT) }));
  context.usesRegex ||= term.value.kind === 'regex';
  const text = term.value.kind === 'regex' ? `${textParameter}::text` : `(SELECT ${textParameter}::text)`;
  const condition = slotted.replaceAll(TEXT_SLOT, text);
  const union: OwnTextUnion = { own: `(${HOLDS_OWN_TEXT('sx')}) AND ${condition}`, linked: linkedToSourceUnits, whole: unitsWithOwnOrSourceText(condition) };
  context.ownTextUnion = union;
  return union.whole;
}

/** "Exact-type" fields (§7.2): `:` case-insensitive exact, `:=` case-sensitive exact. */
function exactLookup(expression: string): FieldCompiler {
  return (term, context) => {
    const pattern = regex(expression, term, context);
    if (pattern) return pattern;
    if (term.operator === ':=') return `${expression} = ${context.param(literal(term))}`;
    return `lower(${expression}) = lower(${context.param(literal(term))})`;
  };
}

const COMPARE: Readonly<Record<string, string>> = { ':': '=', ':=': '=', ':>': '>', ':>=': '>=', ':<': '<', ':<=': '<=' };

function integer(text: string): number {
  if (!/^-?\d{1,15}$/.test(text.trim())) throw new SearchQueryError(`Could not parse numeric value: ${text}`);
  return Number(text);
}

function rejectRegex(term: SearchTerm): void {
  if (term.value.kind === 'regex') throw new SearchQueryError(`Could not parse numeric value: r"${term.value.pattern}"`);
}

/** Numbers: comparisons, `[a to b]` inclusive ranges; `id:` also takes a comma-separated list (§7.4). */
function numberLookup(expression: string, list = false, convert: (text: string) => number = integer, inline = false): FieldCompiler {
  return (term, context) => {
    rejectRegex(term);
    // `inline`: the converted value is one of a few known codes (state), written into the SQL as a literal, so
    // the statement has no parameter and its plan can be kept (units-read.service.ts, named search statements).
    const number = (value: number): string => (inline ? String(value) : context.param(value));
    const { value } = term;
    if (value.kind === 'range') return `${expression} BETWEEN ${number(convert(value.from))} AND ${number(convert(value.to))}`;
    const text = (value as { text: string }).text;
    if (list && (term.operator === ':' || term.operator === ':=') && text.includes(',')) {
      return `${expression} = ANY(${context.param(text.split(',').map(convert))}::bigint[])`;
    }
    return `${expression} ${COMPARE[term.operator]} ${number(convert(text))}`;
  };
}

/** §7.5: state names and codes. */
const STATES: Readonly<Record<string, number>> = {
  empty: 0,
  untranslated: 0,
  'needs-editing': 10,
  fuzzy: 10,
  'needs-rewriting': 11,
  'needs-checking': 12,
  translated: 20,
  approved: 30,
  'read-only': 100,
  readonly: 100,
};

function state(text: string): number {
  // Own entries only: `constructor`, `__proto__`… are Object.prototype's, and the code is written into the
  // statement as a literal (numberLookup's `inline`), so it must be an integer 0..100 and nothing else.
  const name = text.toLowerCase();
  const code = /^\d+$/.test(text) ? Number(text) : Object.hasOwn(STATES, name) ? STATES[name] : undefined;
  if (code === undefined || !Number.isInteger(code) || code > 100) throw new SearchQueryError(`Unsupported state: ${text}`);
  return code;
}

/** Dates (§7.3): periods match anywhere inside (`:`), from their start (`:>`, `:>=`) or up to their end (`:<`, `:<=`). */
function dateLookup(expression: string): FieldCompiler {
  return (term, context) => {
    if (term.value.kind === 'regex') throw new SearchQueryError(`Could not parse timestamp: r"${term.value.pattern}"`);
    if (term.value.kind === 'range') {
      const from = parseSearchDate(term.value.from, context.now);
      const to = parseSearchDate(term.value.to, context.now);
      return `(${expression} >= ${context.param(from.start)} AND ${expression} < ${context.param(to.end)})`;
    }
    const period = parseSearchDate(term.value.text, context.now);
    const start = (): string => context.param(period.start);
    const end = (): string => context.param(period.end);
    switch (term.operator) {
      case ':>':
        return `${expression} ${period.instant ? '>' : '>='} ${start()}`;
      case ':>=':
        return `${expression} >= ${start()}`;
      case ':<':
        return period.instant ? `${expression} < ${start()}` : `${expression} < ${end()}`;
      case ':<=':
        return period.instant ? `${expression} <= ${start()}` : `${expression} < ${end()}`;
      default:
        return `(${expression} >= ${start()} AND ${expression} < ${end()})`;
    }
  };
}

function booleanValue(text: string): boolean {
  const lowered = text.toLowerCase();
  if (['yes', 'true', 'on', '1'].includes(lowered)) return true;
  if (['no', 'false', 'off', '0'].includes(lowered)) return false;
  throw new SearchQueryError(`Could not parse boolean value: ${text}`);
}

const textOf = (term: SearchTerm): string => (term.value.kind === 'text' ? term.value.text : literal(term));

/** Translations matching a condition on t, c (component), p (project) and l (language). */
const translationsWhere = (condition: string): string =>
  `u.translation_id IN (SELECT t.id FROM translations t JOIN components c ON c.id = t.component_id
     JOIN projects p ON p.id = c.project_id JOIN languages l ON l.id = t.language_id WHERE ${condition})`;

// ---- change events (§7.4): `changed:`, `changed_by:`, `change_time:`, `change_action:` ----

/** Change filters compile to conditions over `ch`; the compiler joins those of one AND group into ONE event. */
export const CHANGE_FIELDS: Readonly<Record<string, FieldCompiler>> = {
  changed: (term, context) => `ch.action = ANY(${context.param(CONTENT_ACTIONS)}::int[]) AND ${dateLookup('ch.timestamp')(term, context)}`,
  change_time: dateLookup('ch.timestamp'),
  changed_by: (term, context) => {
    const content = `ch.action = ANY(${context.param(CONTENT_ACTIONS)}::int[])`;
    // [latest] `changed_by:""`: content changes made without an author.
    if (term.value.kind === 'text' && term.value.text === '') return `${content} AND COALESCE(ch.author_id, ch.user_id) IS NULL`;
    const user = exactLookup('cu.username')(term, context);
    return `${content} AND EXISTS (SELECT 1 FROM users cu WHERE cu.id = COALESCE(ch.author_id, ch.user_id) AND ${user})`;
  },
  change_action: (term, context) => {
    const wanted = textOf(term).toLowerCase();
    const code = knownActions().find((action) => {
      const name = actionName(action).toLowerCase();
      return name === wanted || name.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') === wanted;
    });
    if (code === undefined) throw new SearchQueryError(`Unknown change action: ${textOf(term)}`);
    return `ch.action = ${context.param(code)}`;
  },
};

/** One change event satisfying every condition. */
export const changeEvent = (conditions: string[]): string => `EXISTS (SELECT 1 FROM changes ch WHERE ch.unit_id = u.id AND ${conditions.map((c) => `(${c})`).join(' AND ')})`;

// ---- has: and is: (§7.6, §7.7) ----

const NOTHING: LookupCompiler = () => 'FALSE';
const hasLookups = new Map<string, LookupCompiler>([
  ['plural', () => `strpos(u.source, chr(30) || chr(30)) > 0`],
  ['context', () => `u.context <> ''`],
  // The unit flags kept by the modules that own checks, suggestions and comments (has_failing_check,
  // has_suggestion, has_comment of the unit response): a search agrees with what the unit answers.
  ['suggestion', () => 'u.has_suggestion'],
  ['comment', () => 'u.has_comment'],
  ['check', () => 'u.has_failing_check'],
  ['failing-check', () => 'u.has_failing_check'],
  ['resolved-comment', NOTHING],
  ['source-comment', NOTHING],
  ['resolved-source-comment', NOTHING],
  ['dismissed-check', NOTHING],
  ['ignored-check', NOTHING],
  ['translation', () => 'u.state >= 20'],
  // The source string has a label (§7.6).
  ['label', () => labelledUnits('TRUE')],
  // Glossa has no string variants, screenshots or glossaries yet: nothing belongs to one.
  ['variant', NOTHING],
  ['shaping', NOTHING],
  ['screenshot', NOTHING],
  ['glossary', NOTHING],
  ['flags', () => `${SOURCE('extra_flags')} <> ''`],
  ['explanation', () => `${SOURCE('explanation')} <> ''`],
  ['note', () => `u.note <> ''`],
  ['location', () => `u.location <> ''`],
]);

const isLookups = new Map<string, LookupCompiler>([
  ['read-only', () => 'u.state = 100'],
  ['readonly', () => 'u.state = 100'],
  ['approved', () => 'u.state = 30'],
  // [latest]: any needs-editing variant (10, 11, 12).
  ['fuzzy', () => 'u.state BETWEEN 10 AND 12'],
  ['needs-editing', () => 'u.state BETWEEN 10 AND 12'],
  ['translated', () => 'u.state >= 20'],
  ['untranslated', () => 'u.state < 20'],
  ['pending', () => 'u.pending'],
  // Last content change made by automatic translation (action 6).
  [
    'automatically-translated',
    (context) => `(SELECT ch.action FROM changes ch WHERE ch.unit_id = u.id AND ch.action = ANY(${context.param(CONTENT_ACTIONS)}::int[]) ORDER BY ch.id DESC LIMIT 1) = 6`,
  ],
]);

function lookup(table: Map<string, LookupCompiler>, kind: 'is' | 'has'): FieldCompiler {
  return (term, context) => {
    const name = textOf(term);
    const compile = term.value.kind === 'text' ? table.get(name.toLowerCase().replace(/_/g, '-')) : undefined;
    if (!compile) throw new SearchQueryError(`Unsupported lookup for ${kind}: ${name}`);
    return compile(context);
  };
}

// ---- labels (checks-suggestions-search.md §7.4, §7.6; tables of src/modules/labels) ----

/**
 * Units whose source string carries a label meeting `condition` (over `lb`): the labelled units themselves
 * (Glossa labels source units only, unit-labels.ts) and the translation units of those strings, driven from the
 * small label tables through the source_unit_id index rather than probed per unit.
 */
const labelledUnits = (condition: string): string =>
  `u.id IN (SELECT ul.unit_id FROM unit_labels ul JOIN labels lb ON lb.id = ul.label_id WHERE ${condition}
     UNION ALL SELECT dx.id FROM unit_labels ul JOIN labels lb ON lb.id = ul.label_id JOIN units dx ON dx.source_unit_id = ul.unit_id
      WHERE dx.id <> ul.unit_id AND ${condition})`;

/** `label:` as Weblate 4.x matches it: the name exactly, ignoring case (`:=` respecting it), or `r"…"`. */
const labelField: FieldCompiler = (term, context) => labelledUnits(exactLookup('lb.name')(term, context));

/** `labels_count:N` (5.13): the number of labels of the unit's source string. */
const labelsCount = numberLookup('(SELECT count(*) FROM unit_labels ul WHERE ul.unit_id = COALESCE(u.source_unit_id, u.id))');

// ---- the field table ----

const nothing: FieldCompiler = () => 'FALSE';

const fields = new Map<string, FieldCompiler>([
  ['source', throughSourceUnits('source')],
  ['target', textLookup('u.target')],
  ['context', throughSourceUnits('context')],
  ['key', throughSourceUnits('context')],
  ['note', textLookup('u.note')],
  ['location', textLookup('u.location')],
  ['explanation', textLookup(SOURCE('explanation'))],
  ['priority', numberLookup('u.priority')],
  ['id', numberLookup('u.id', true)],
  ['position', numberLookup('u.position')],
  ['added', dateLookup('u.timestamp')],
  ['last_changed', dateLookup('(SELECT max(ch.timestamp) FROM changes ch WHERE ch.unit_id = u.id)')],
  // When the source string last changed (5.5.1): its latest 30 "Source string changed", on the unit or on its
  // source unit, else when the source string was added.
  [
    'source_changed',
    (term, context) =>
      dateLookup(
        `COALESCE((SELECT max(ch.timestamp) FROM changes ch
                    WHERE ch.unit_id IN (u.id, COALESCE(u.source_unit_id, u.id)) AND ch.action = ${context.param(ACTION_SOURCE_CHANGE)}),
                  ${SOURCE('timestamp')})`,
      )(term, context),
  ],
  // State codes are integers 0..100 (state() refuses anything else), so they are inlined: no user text.
  ['state', numberLookup('u.state', false, state, true)],
  ['source_state', numberLookup(SOURCE('state'), false, state, true)],
  [
    'pending',
    (term) => {
      rejectRegex(term);
      return booleanValue(textOf(term)) ? 'u.pending' : 'NOT u.pending';
    },
  ],
  ['has', lookup(hasLookups, 'has')],
  ['is', lookup(isLookups, 'is')],
  ['language', (term, context) => translationsWhere(exactLookup('l.code')(term, context))],
  ['project', (term, context) => translationsWhere(exactLookup('p.slug')(term, context))],
  [
    'component',
    // [latest]: slug or name containing the text; `:=` case-insensitive exact on either (§7.4).
    (term, context) => {
      const pattern = regex('c.slug', term, context);
      if (pattern) return translationsWhere(`(${pattern} OR c.name ~ ${context.param((term.value as { pattern: string }).pattern)})`);
      if (term.operator === ':=') {
        const p = context.param(literal(term));
        return translationsWhere(`(lower(c.slug) = lower(${p}) OR lower(c.name) = lower(${p}))`);
      }
      const p = context.param(`%${escapeLike(literal(term))}%`);
      return translationsWhere(`(c.slug ILIKE ${p} OR c.name ILIKE ${p})`);
    },
  ],
  [
    'path',
    // `project`, `project/component`, `project/component/language`, `project/-/language`; anything else
    // (Glossa has no categories) names no object, so nothing matches (§7.4).
    (term, context) => {
      const parts = textOf(term).split('/');
      if (parts.length > 3 || parts.some((part) => part === '')) return 'FALSE';
      const conditions = [`p.slug = ${context.param(parts[0])}`];
      if (parts[1] !== undefined && parts[1] !== '-') conditions.push(`c.slug = ${context.param(parts[1])}`);
      if (parts[1] === '-' && parts[2] === undefined) return 'FALSE';
      if (parts[2] !== undefined) conditions.push(`l.code = ${context.param(parts[2])}`);
      return translationsWhere(conditions.join(' AND '));
    },
  ],
  ...Object.entries(CHANGE_FIELDS).map(([name, compile]): [string, FieldCompiler] => [name, (term, context) => changeEvent([compile(term, context)])]),
  // Extension point defaults (see the header): no check, suggestion, comment, label or screenshot data yet.
  ['check', nothing],
  ['dismissed_check', nothing],
  ['suggestion', nothing],
  ['suggestion_author', nothing],
  ['comment', nothing],
  ['resolved_comment', nothing],
  ['comment_author', nothing],
  ['source_comment', nothing],
  ['resolved_source_comment', nothing],
  ['source_comment_author', nothing],
  ['label', labelField],
  ['screenshot', nothing],
  ['labels_count', labelsCount],
]);

/** EXTENSION POINT: replaces (or adds) the compiler of `field`. */
export function registerUnitSearchField(field: string, compile: FieldCompiler): void {
  fields.set(field, compile);
}

/** EXTENSION POINT: replaces (or adds) the condition of `has:<value>`. */
export function registerHasLookup(value: string, compile: LookupCompiler): void {
  hasLookups.set(value, compile);
}

export function fieldCompiler(field: string): FieldCompiler {
  const compile = fields.get(field);
  if (!compile) throw new SearchQueryError(`Unknown search field: ${field}`);
  return compile;
}

/** A bare word or phrase: substring of source, target or context (§7.2); `r"…"` as a regular expression. */
export const bareTerm: FieldCompiler = (term, context) => {
  const regex = term.value.kind === 'regex';
  if (regex) context.usesRegex = true;
  const p = context.param(regex ? (term.value as { pattern: string }).pattern : `%${escapeLike(literal(term))}%`);
  const operator = regex ? '~' : 'ILIKE';
  return unitsWithOwnOrSourceText(`(sx.source ${operator} ${p} OR sx.context ${operator} ${p})`, `SELECT ux.id FROM units ux WHERE ux.target ${operator} ${p}`);
};
