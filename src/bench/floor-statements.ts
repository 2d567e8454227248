// The SQL of the floor process (floor-server.ts, issue 15 item 1): for each read scenario of the bench ONE
// statement that returns the whole JSON body of the scenario's response as text, built by PostgreSQL with
// json_build_object from the same rows and columns Glossa reads. So the floor costs: routing by the same
// framework, one round trip on a prepared statement, and sending the bytes — what a read cannot go below on
// this stack. It does no access check (no auth), no redaction and no Allow/Vary headers, and is a yardstick
// only: its JSON has Glossa's keys and about its size, not necessarily its exact bytes.
//
// Every statement takes $1 = the request's origin (`http://host:port`, which Glossa's links also start with
// outside production); API links carry `?format=api` (spec rule 3).

import { actionName } from '../modules/changes/change-actions';
import { unitLabelsJson } from '../modules/labels/unit-labels';

/** Action names indexed by action + 1 (a PostgreSQL array is 1-based): the `$2` of the change statements. */
export const FLOOR_ACTION_NAMES: readonly string[] = Array.from({ length: 128 }, (_, action) => actionName(action));

type Field = readonly [key: string, sql: string];

/** A JSON object with these keys in this order. json_build_object takes at most 100 arguments (50 keys),
 * so larger objects are a row_to_json of a one-row subselect, which keeps the column order as key order. */
function object(fields: readonly Field[]): string {
  if (fields.length <= 50) return `json_build_object(${fields.map(([key, sql]) => `'${key}', ${sql}`).join(', ')})`;
  return `(SELECT row_to_json(o) FROM (SELECT ${fields.map(([key, sql]) => `${sql} AS "${key}"`).join(', ')}) o)`;
}

const api = (path: string): string => `$1 || ${path} || '?format=api'`;
const web = (path: string): string => `$1 || ${path}`;
/** ISO 8601 UTC with microseconds and Z (architecture.md "The contract"). */
const timestamp = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
/** Weblate's one-decimal truncated percentage (weblate-api.md §11.2); `complete` counts an empty total as 100.0. */
const percent = (count: string, total: string, complete: boolean): string =>
  `CASE WHEN ${total} = 0 THEN ${complete ? '100.0' : '0.0'} ELSE trunc(100.0 * ${count} / ${total}, 1) END`;

const languageObject = (l: string): string =>
  object([
    ['code', `${l}.code`],
    ['name', `${l}.name`],
    ['plural', `json_build_object('id', ${l}.id, 'source', 0, 'number', ${l}.plural_number, 'formula', ${l}.plural_formula, 'type', ${l}.plural_type)`],
    ['aliases', `${l}.aliases`],
    ['direction', `${l}.direction`],
    ['population', `${l}.population`],
    ['web_url', web(`'/languages/' || ${l}.code || '/'`)],
    ['url', api(`'/api/languages/' || ${l}.code || '/'`)],
    ['statistics_url', api(`'/api/languages/' || ${l}.code || '/statistics/'`)],
  ]);

function projectObject(p: string): string {
  const base = `'/api/projects/' || ${p}.slug || '/'`;
  return object([
    ['name', `${p}.name`],
    ['slug', `${p}.slug`],
    ['id', `${p}.id`],
    ['web', `${p}.web`],
    ['web_url', web(`'/projects/' || ${p}.slug || '/'`)],
    ['url', api(base)],
    ['components_list_url', api(`${base} || 'components/'`)],
    ['repository_url', api(`${base} || 'repository/'`)],
    ['statistics_url', api(`${base} || 'statistics/'`)],
    ['changes_list_url', api(`${base} || 'changes/'`)],
    ['languages_url', api(`${base} || 'languages/'`)],
    ['translation_review', `${p}.translation_review`],
    ['source_review', `${p}.source_review`],
    ['set_language_team', `${p}.set_language_team`],
    ['instructions', `${p}.instructions`],
    ['enable_hooks', `${p}.enable_hooks`],
    ['language_aliases', `${p}.language_aliases`],
  ]);
}

/** A component with its project (alias p) and source language (alias sl) joined by the caller. */
function componentObject(c: string, p: string, sl: string): string {
  const base = `'/api/components/' || ${p}.slug || '/' || ${c}.slug || '/'`;
  const plain = (...columns: string[]): Field[] => columns.map((column) => [column, `${c}.${column}`]);
  return object([
    ...plain('name', 'slug', 'id'),
    ['source_language', languageObject(sl)],
    ['project', projectObject(p)],
    ...plain('vcs', 'repo', 'push', 'git_export', 'branch', 'push_branch', 'filemask', 'screenshot_filemask', 'template'),
    ...plain('edit_template', 'intermediate', 'new_base', 'file_format', 'license'),
    ['license_url', `CASE WHEN ${c}.license = '' THEN '' ELSE 'https://spdx.org/licenses/' || ${c}.license || '.html' END`],
    ['agreement', `${c}.agreement`],
    ['web_url', web(`'/projects/' || ${p}.slug || '/' || ${c}.slug || '/'`)],
    ['url', api(base)],
    ...['repository', 'translations', 'statistics', 'lock', 'links', 'changes'].map(
      (name): Field => [name === 'changes' ? 'changes_list_url' : `${name}_url`, api(`${base} || '${name}/'`)],
    ),
    ['task_url', `CASE WHEN ${c}.task_id IS NULL THEN NULL ELSE ${api(`'/api/tasks/' || ${c}.task_id || '/'`)} END`],
    ...plain('new_lang', 'language_code_style', 'check_flags', 'priority', 'enforced_checks', 'restricted', 'repoweb'),
    ...plain('report_source_bugs', 'merge_style', 'commit_message', 'add_message', 'delete_message', 'merge_message'),
    ...plain('addon_message', 'pull_message', 'allow_translation_propagation', 'manage_units', 'enable_suggestions'),
    ...plain('suggestion_voting', 'suggestion_autoaccept', 'push_on_commit', 'commit_pending_age', 'auto_lock_error'),
    ...plain('language_regex', 'variant_regex'),
    [
      'addons',
      `(SELECT coalesce(json_agg(${api(`'/api/addons/' || a.id || '/'`)} ORDER BY a.id), '[]') FROM addons a WHERE a.component_id = ${c}.id)`,
    ],
    ...plain('is_glossary', 'glossary_color'),
  ]);
}

/** Joins of a translation `t` to its component `c`, project `p`, source language `sl`, language `l`, last author `au`. */
const TRANSLATION_JOINS = `translations t
  JOIN components c ON c.id = t.component_id
  JOIN projects p ON p.id = c.project_id
  JOIN languages sl ON sl.id = c.source_language_id
  JOIN languages l ON l.id = t.language_id
  LEFT JOIN users au ON au.id = t.last_author_id`;

function translationObject(withComponent: boolean): string {
  const path = `p.slug || '/' || c.slug || '/' || l.code || '/'`;
  const base = `'/api/translations/' || ${path}`;
  return object([
    ['language', languageObject('l')],
    ...(withComponent ? [['component', componentObject('c', 'p', 'sl')] as Field] : []),
    ['language_code', 't.language_code'],
    ['id', 't.id'],
    ['filename', 't.filename'],
    ['revision', 't.revision'],
    ['web_url', web(`'/projects/' || ${path}`)],
    ['share_url', web(`'/engage/' || p.slug || '/' || l.code || '/'`)],
    ['translate_url', web(`'/translate/' || ${path}`)],
    ['url', api(base)],
    ['is_template', 't.is_template'],
    ['is_source', 't.is_source'],
    ['total', 't.total'],
    ['total_words', 't.total_words'],
    ['translated', 't.translated'],
    ['translated_words', 't.translated_words'],
    ['translated_percent', percent('t.translated', 't.total', true)],
    ['fuzzy', 't.fuzzy'],
    ['fuzzy_words', 't.fuzzy_words'],
    ['fuzzy_percent', percent('t.fuzzy', 't.total', false)],
    ['failing_checks', 't.failing_checks'],
    ['failing_checks_words', 't.failing_checks_words'],
    ['failing_checks_percent', percent('t.failing_checks', 't.total', false)],
    ['have_suggestion', 't.have_suggestion'],
    ['have_comment', 't.have_comment'],
    ['last_change', timestamp('t.last_change')],
    ['last_author', `coalesce(nullif(au.full_name, ''), au.username)`],
    ...['repository', 'file', 'statistics', 'changes', 'units'].map(
      (name): Field => [name === 'changes' ? 'changes_list_url' : name === 'units' ? 'units_list_url' : `${name}_url`, api(`${base} || '${name}/'`)],
    ),
  ]);
}

/** A unit `u` whose translation's slugs are `ps`, `cs`, `lc` (columns of the caller's FROM). */
function unitObject(): string {
  const path = `ps || '/' || cs || '/' || lc || '/'`;
  // splitPlurals: "" is [""] (weblate-api.md §9.5), where string_to_array would give [].
  const plurals = (column: string): string => `CASE WHEN ${column} = '' THEN ARRAY[''] ELSE string_to_array(${column}, E'\\x1e\\x1e') END`;
  // Weblate's checksum is the unsigned hash in hex: flipping the sign bit adds 2^63 (weblate-hash.ts).
  const checksum = `lpad(to_hex(u.id_hash # (-9223372036854775807 - 1)), 16, '0')`;
  const plain = (...columns: string[]): Field[] => columns.map((column) => [column, `u.${column}`]);
  return object([
    ['id', 'u.id'],
    ['translation', api(`'/api/translations/' || ${path}`)],
    ['source', plurals('u.source')],
    ['previous_source', 'u.previous_source'],
    ['target', plurals('u.target')],
    ...plain('id_hash', 'content_hash', 'location', 'context', 'note', 'flags', 'extra_flags', 'explanation'),
    ['labels', unitLabelsJson('u')],
    ['state', 'u.state'],
    ['fuzzy', 'u.state BETWEEN 10 AND 12'],
    ['translated', 'u.state >= 20'],
    ['approved', 'u.state = 30'],
    ...plain('pending', 'position', 'has_suggestion', 'has_comment', 'has_failing_check', 'num_words'),
    ['source_unit', api(`'/api/units/' || coalesce(u.source_unit_id, u.id) || '/'`)],
    ['priority', 'u.priority'],
    ['web_url', `${web(`'/translate/' || ${path}`)} || '?checksum=' || ${checksum}`],
    ['url', api(`'/api/units/' || u.id || '/'`)],
    ['timestamp', timestamp('u.timestamp')],
  ]);
}

/** A change `ch` with the joins of CHANGE_JOINS; $2 is the action names indexed by action + 1. */
function changeObject(): string {
  const user = (alias: string): string => `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE ${api(`'/api/users/' || ${alias}.username || '/'`)} END`;
  return object([
    ['id', 'ch.id'],
    ['unit', `CASE WHEN ch.unit_id IS NULL THEN NULL ELSE ${api(`'/api/units/' || ch.unit_id || '/'`)} END`],
    ['component', `CASE WHEN c.id IS NULL THEN NULL ELSE ${api(`'/api/components/' || cp.slug || '/' || c.slug || '/'`)} END`],
    ['translation', `CASE WHEN t.id IS NULL THEN NULL ELSE ${api(`'/api/translations/' || tp.slug || '/' || tc.slug || '/' || tl.code || '/'`)} END`],
    ['user', user('uu')],
    ['author', user('au')],
    ['timestamp', timestamp('ch.timestamp')],
    ['action', 'ch.action'],
    ['action_name', '($2::text[])[ch.action + 1]'],
    ['target', 'ch.target'],
    ['url', api(`'/api/changes/' || ch.id || '/'`)],
  ]);
}

const CHANGE_JOINS = `LEFT JOIN components c ON c.id = ch.component_id
  LEFT JOIN projects cp ON cp.id = c.project_id
  LEFT JOIN translations t ON t.id = ch.translation_id
  LEFT JOIN components tc ON tc.id = t.component_id
  LEFT JOIN projects tp ON tp.id = tc.project_id
  LEFT JOIN languages tl ON tl.id = t.language_id
  LEFT JOIN users uu ON uu.id = ch.user_id
  LEFT JOIN users au ON au.id = ch.author_id`;

/**
 * `next`/`previous` of a list envelope: the list's path with `format`, `page` and, when the request had it,
 * `page_size` (sorted, as DRF's replace_query_param leaves them; the link to page 1 has no `page`, as DRF's
 * remove_query_param). `sizeGiven` is a boolean parameter.
 */
const pageLink = (path: string, page: string, size: string, sizeGiven: string): string =>
  `$1 || ${path} || '?format=api' || CASE WHEN ${page} = 1 THEN '' ELSE '&page=' || ${page} END
     || CASE WHEN ${sizeGiven} THEN '&page_size=' || ${size} ELSE '' END`;

function envelope(count: string, path: string, [page, size, sizeGiven]: readonly [string, string, string], results: string): string {
  return `json_build_object('count', ${count},
    'next', CASE WHEN ${page} * ${size} < ${count} THEN ${pageLink(path, `${page} + 1`, size, sizeGiven)} END,
    'previous', CASE WHEN ${page} > 1 THEN ${pageLink(path, `${page} - 1`, size, sizeGiven)} END,
    'results', coalesce(${results}, '[]'))`;
}

export interface FloorStatement {
  name: string;
  text: string;
}

const statement = (name: string, text: string): FloorStatement => ({ name: `floor_${name}`, text });

/** The scenarios' statements; each answers one row with one text column `body`. */
export const FLOOR_STATEMENTS = {
  /** $2 project slug. */
  project: statement('project', `SELECT ${projectObject('p')}::text AS body FROM projects p WHERE p.slug = $2`),
  /** $2 project, $3 component slug. */
  component: statement(
    'component',
    `SELECT ${componentObject('c', 'p', 'sl')}::text AS body
       FROM components c JOIN projects p ON p.id = c.project_id JOIN languages sl ON sl.id = c.source_language_id
      WHERE p.slug = $2 AND c.slug = $3`,
  ),
  /** $2 project, $3 component, $4 language code. */
  translation: statement('translation', `SELECT ${translationObject(true)}::text AS body FROM ${TRANSLATION_JOINS} WHERE p.slug = $2 AND c.slug = $3 AND l.code = $4`),
  /** $2 project, $3 component, $4 page, $5 page size, $6 page size given; ordered by id (source first). */
  componentTranslations: statement(
    'component_translations',
    `WITH found AS (SELECT c.id, p.slug FROM components c JOIN projects p ON p.id = c.project_id WHERE p.slug = $2 AND c.slug = $3)
     SELECT ${envelope(
       '(SELECT count(*) FROM translations WHERE component_id = found.id)',
       `'/api/components/' || $2 || '/' || $3 || '/translations/'`,
       ['$4::int', '$5::int', '$6::boolean'],
       `(SELECT json_agg(x.item ORDER BY x.id) FROM (
          SELECT ${translationObject(false)} AS item, t.id FROM ${TRANSLATION_JOINS} WHERE t.component_id = found.id
           ORDER BY t.id LIMIT $5::int OFFSET ($4::int - 1) * $5::int) x)`,
     )}::text AS body FROM found`,
  ),
  /**
   * $2 project, $3 component, $4 language, $5 page, $6 page size, $7 page size given. The units of a translation hold positions
   * 1..total and the count is the stored total, so a page is a range of positions (as Glossa reads it).
   */
  units: statement(
    'units',
    `WITH found AS (
       SELECT t.id, t.total, p.slug AS ps, c.slug AS cs, l.code AS lc FROM translations t
         JOIN components c ON c.id = t.component_id JOIN projects p ON p.id = c.project_id JOIN languages l ON l.id = t.language_id
        WHERE p.slug = $2 AND c.slug = $3 AND l.code = $4)
     SELECT ${envelope(
       'found.total',
       `'/api/translations/' || $2 || '/' || $3 || '/' || $4 || '/units/'`,
       ['$5::int', '$6::int', '$7::boolean'],
       `(SELECT json_agg(${unitObject()} ORDER BY u.position) FROM units u
          WHERE u.translation_id = found.id AND u.position > ($5::int - 1) * $6::int AND u.position <= $5::int * $6::int)`,
     )}::text AS body FROM found`,
  ),
  /** $2 unit id. */
  unit: statement(
    'unit',
    `SELECT ${unitObject()}::text AS body FROM units u
       CROSS JOIN LATERAL (SELECT p.slug AS ps, c.slug AS cs, l.code AS lc FROM translations t
         JOIN components c ON c.id = t.component_id JOIN projects p ON p.id = c.project_id JOIN languages l ON l.id = t.language_id
        WHERE t.id = u.translation_id) slugs
      WHERE u.id = $2`,
  ),
  /** $2 action names, $3 page, $4 page size, $5 page size given; ascending id (weblate-api.md §5.10). */
  changes: statement(
    'changes',
    `SELECT ${envelope(
      '(SELECT count(*) FROM changes)',
      `'/api/changes/'`,
      ['$3::int', '$4::int', '$5::boolean'],
      `(SELECT json_agg(x.item ORDER BY x.id) FROM (
         SELECT ${changeObject()} AS item, ch.id FROM changes ch ${CHANGE_JOINS}
          ORDER BY ch.id LIMIT $4::int OFFSET ($3::int - 1) * $4::int) x)`,
    )}::text AS body`,
  ),
  /** $2 action names, $3 change id. */
  change: statement('change', `SELECT ${changeObject()}::text AS body FROM changes ch ${CHANGE_JOINS} WHERE ch.id = $3`),
  /** $2 content-change actions, $3 project, $4 component, $5 language (statistics.service.ts forTranslation). */
  statistics: statement(
    'statistics',
    `SELECT ${object([
      ['total', 't.total'],
      ['total_words', 't.total_words'],
      ['last_change', timestamp('t.last_change')],
      [
        'recent_changes',
        `(SELECT count(*) FROM changes ch WHERE ch.translation_id = t.id AND ch.action = ANY($2::smallint[])
           AND ch.timestamp >= t.last_change - interval '6 hours')`,
      ],
      ['translated', 't.translated'],
      ['translated_words', 't.translated_words'],
      ['translated_percent', percent('t.translated', 't.total', true)],
      ['translated_words_percent', percent('t.translated_words', 't.total_words', true)],
      ['translated_chars', 't.translated_chars'],
      ['translated_chars_percent', percent('t.translated_chars', 't.total_chars', true)],
      ['total_chars', 't.total_chars'],
      ['fuzzy', 't.fuzzy'],
      ['fuzzy_percent', percent('t.fuzzy', 't.total', false)],
      ['failing', 't.failing_checks'],
      ['failing_percent', percent('t.failing_checks', 't.total', false)],
      ['approved', 't.approved'],
      ['approved_percent', percent('t.approved', 't.total', false)],
      ['readonly', 't.readonly'],
      ['readonly_percent', percent('t.readonly', 't.total', false)],
      ['suggestions', 't.have_suggestion'],
      ['comments', 't.have_comment'],
      ['code', 'l.code'],
      ['name', 'l.name'],
      ['url', web(`'/projects/' || p.slug || '/' || c.slug || '/' || l.code || '/'`)],
      ['translate_url', web(`'/translate/' || p.slug || '/' || c.slug || '/' || l.code || '/'`)],
      ['last_author', `coalesce(nullif(au.full_name, ''), au.username)`],
    ])}::text AS body FROM ${TRANSLATION_JOINS} WHERE p.slug = $3 AND c.slug = $4 AND l.code = $5`,
  ),
} satisfies Record<string, FloorStatement>;
