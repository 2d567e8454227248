import { type DetailRead, versionColumn } from '../../common/auth/read-with-access';
import { parsePageRequest } from '../../common/pagination/page-params';
import { entityFromJson } from '../../database/entity-json';
import { PreparedStatement } from '../../database/prepared-statement';
import type { Component } from '../components/component.entity';
import { COMPONENT_ADDON_IDS } from '../components/component-read.statement';
import type { Language } from '../languages/language.entity';
import type { Project } from '../projects/project.entity';
import type { User } from '../users/user.entity';
import type { Translation } from './translation.entity';
import type { LoadedTranslation } from './translations.service';

// The translation detail and a component's translation list, each one named statement (docs/performance.md,
// "Read floor"): the rows come back as JSON and feed toTranslationResponse through entity-shaped objects, as
// the units page feeds its mapper from one statement. Visibility is the auth guard's (scope-access.ts): both
// paths name their translation or component, which the guard resolves and refuses (404) when hidden.

interface TranslationJsonRow {
  t: Record<string, unknown> | null;
  last_change: string | null;
  l: Record<string, unknown> | null;
  last_author: { username: string; full_name: string } | null;
}

interface DetailRow extends TranslationJsonRow {
  c: Record<string, unknown>;
  addon_ids: number[];
  p: Record<string, unknown>;
  sl: Record<string, unknown>;
}

interface ComponentListRow extends TranslationJsonRow {
  project_slug: string;
  component_slug: string;
  total: number;
}

const TRANSLATION_COLUMNS = `to_json(t) AS t, t.last_change::text AS last_change, to_json(l) AS l,
  CASE WHEN la.id IS NULL THEN NULL ELSE json_build_object('username', la.username, 'full_name', la.full_name) END AS last_author`;

/** `/api/translations/<p>/<c>/<language>/`: the language is found by its code (languages.code), as before. */
const translationFrom = (n: number): string =>
  `FROM translations t JOIN languages l ON l.id = t.language_id JOIN components c ON c.id = t.component_id
     JOIN projects p ON p.id = c.project_id JOIN languages sl ON sl.id = c.source_language_id
     LEFT JOIN users la ON la.id = t.last_author_id
    WHERE p.slug = $${n} AND c.slug = $${n + 1} AND l.code = $${n + 2}`;
const translationDetailSql = (n: number): string =>
  `SELECT ${TRANSLATION_COLUMNS}, to_json(c) AS c, to_json(p) AS p, to_json(sl) AS sl, ${COMPONENT_ADDON_IDS} AS addon_ids ${translationFrom(n)}`;
const TRANSLATION_DETAIL = new PreparedStatement<DetailRow>(translationDetailSql(1));

/** The detail's body read by the auth guard's statement (read-with-access.ts); the path's parameters match. */
export const TRANSLATION_DETAIL_READ: DetailRead = {
  kind: 'translation',
  sql: translationDetailSql,
  // The body is these rows (the last author's names), the add-ons' ids and the request's links
  // (toTranslationResponse); the translation's statistics and last change are its own columns.
  version: (n) => `SELECT ${versionColumn('t.xmin', 'l.xmin', 'c.xmin', 'p.xmin', 'sl.xmin', 'la.xmin', COMPONENT_ADDON_IDS)} ${translationFrom(n)}`,
};

/** The count of the translations of the component `c` of the caller's FROM. */
const TRANSLATION_COUNT = `(SELECT count(*)::int FROM translations WHERE component_id = c.id)`;

/**
 * A page of a component's translations ordered by id, with the component's count of translations: one row
 * with t null when the page is empty, none when the component does not exist ($3 = size, $4 = offset).
 */
const COMPONENT_TRANSLATIONS = new PreparedStatement<ComponentListRow>(
  `WITH co AS MATERIALIZED (
     SELECT c.id, c.slug AS component_slug, p.slug AS project_slug,
            ${TRANSLATION_COUNT} AS total
       FROM components c JOIN projects p ON p.id = c.project_id WHERE p.slug = $1 AND c.slug = $2
   )
   SELECT co.project_slug, co.component_slug, co.total, ${TRANSLATION_COLUMNS}
     FROM co LEFT JOIN LATERAL (SELECT * FROM translations tp WHERE tp.component_id = co.id ORDER BY tp.id LIMIT $3 OFFSET $4) t ON TRUE
     LEFT JOIN languages l ON l.id = t.language_id LEFT JOIN users la ON la.id = t.last_author_id
    ORDER BY t.id`,
);

/**
 * The same page as one row (the guard reads at most one): `items` holds the page's rows (TRANSLATION_COLUMNS
 * plus the id they are ordered by), null when empty.
 */
interface ComponentPageRow {
  project_slug: string;
  component_slug: string;
  total: number;
  items: TranslationJsonRow[] | null;
}

/**
 * The page read by the auth guard's statement (read-with-access.ts), as the units page is: the path's project
 * and component, then the page size and offset from the query string. `page=last` needs the count first and a
 * page parsePageRequest refuses is the handler's to answer, so both are left to the handler (null).
 */
/**
 * The page's translations `t` (`columns` of them; `*` leaves out system columns such as xmin) with their
 * language `l` and last author `la` ($n + 2 = size, $n + 3 = offset).
 */
const pageRows = (n: number, columns = '*'): string =>
  `FROM (SELECT ${columns} FROM translations tp WHERE tp.component_id = c.id ORDER BY tp.id LIMIT $${n + 2} OFFSET $${n + 3}) t
   JOIN languages l ON l.id = t.language_id LEFT JOIN users la ON la.id = t.last_author_id`;
const componentOfPath = (n: number): string => `FROM components c JOIN projects p ON p.id = c.project_id WHERE p.slug = $${n} AND c.slug = $${n + 1}`;

export const COMPONENT_TRANSLATIONS_READ: DetailRead = {
  kind: 'component',
  sql: (n) =>
    `SELECT p.slug AS project_slug, c.slug AS component_slug, ${TRANSLATION_COUNT} AS total,
            (SELECT json_agg(item ORDER BY item.id) FROM (SELECT t.id, ${TRANSLATION_COLUMNS} ${pageRows(n)}) item) AS items
       ${componentOfPath(n)}`,
  // The envelope is the count and the request's links; each item its translation's, language's and last
  // author's rows; the component and project give their slugs.
  version: (n) =>
    `SELECT ${versionColumn('c.xmin', 'p.xmin', TRANSLATION_COUNT, `(SELECT string_agg(concat(t.id, ',', t.xmin, ',', l.xmin, ',', la.xmin), ';' ORDER BY t.id) ${pageRows(n, 'tp.id, tp.xmin, tp.language_id, tp.last_author_id')})`)}
       ${componentOfPath(n)}`,
  versionReadsQuery: true,
  queryParams: (query) => {
    const request = parsePageRequest(query);
    if (request.page === 'last') return null;
    return [request.size, (request.page - 1) * request.size];
  },
};

type Db = Parameters<PreparedStatement<DetailRow>['run']>[0];

function translationOf(row: TranslationJsonRow, component: Component): LoadedTranslation {
  const translation = entityFromJson<Translation>(row.t!);
  translation.language = entityFromJson<Language>(row.l!);
  translation.component = component;
  translation.lastAuthor = row.last_author === null ? null : ({ username: row.last_author.username, fullName: row.last_author.full_name } as User);
  return { translation, lastChange: row.last_change };
}

/**
 * The translation with everything toTranslationResponse reads, or null when the path names none: the row the
 * guard read (`prefetched`, TRANSLATION_DETAIL_READ) when there is one, else one statement.
 */
export async function readTranslationDetail(db: Db, prefetched: unknown, projectSlug: string, componentSlug: string, languageCode: string): Promise<LoadedTranslation | null> {
  const row = (prefetched as DetailRow | undefined) ?? (await TRANSLATION_DETAIL.run(db, [projectSlug, componentSlug, languageCode]))[0];
  if (row === undefined) return null;
  const component = entityFromJson<Component>(row.c);
  component.project = entityFromJson<Project>(row.p);
  component.sourceLanguage = entityFromJson<Language>(row.sl);
  component.addonIds = row.addon_ids;
  return translationOf(row, component);
}

/**
 * One page of a component's translations and their count, or null when the component does not exist: the
 * row the guard read (`prefetched`, COMPONENT_TRANSLATIONS_READ) when there is one, else one statement. The
 * translations carry only the component's and project's slugs: the list leaves `component` out (§5.7).
 */
export async function readComponentTranslations(
  db: Db,
  prefetched: unknown,
  projectSlug: string,
  componentSlug: string,
  size: number,
  offset: number,
): Promise<{ count: number; items: LoadedTranslation[] } | null> {
  const page = prefetched as ComponentPageRow | undefined;
  if (page !== undefined) {
    const component = { slug: page.component_slug, project: { slug: page.project_slug } } as Component;
    return { count: page.total, items: (page.items ?? []).map((row) => translationOf(row, component)) };
  }
  const rows = await COMPONENT_TRANSLATIONS.run(db, [projectSlug, componentSlug, size, offset]);
  if (rows.length === 0) return null;
  const component = { slug: rows[0].component_slug, project: { slug: rows[0].project_slug } } as Component;
  const items = rows[0].t === null ? [] : rows.map((row) => translationOf(row, component));
  return { count: rows[0].total, items };
}
