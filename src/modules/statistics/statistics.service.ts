import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { changeVisibleSql, visibleComponentIdsSql } from '../../common/auth/access-sql';
import type { DetailRead } from '../../common/auth/read-with-access';
import { notFound } from '../../common/http/api-errors';
import { PreparedStatement } from '../../database/prepared-statement';
import type { ApiCaller, RequestContext } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { CONTENT_CHANGE_ACTIONS } from '../changes/change-actions';
import { ComponentsService } from '../components/components.service';
import type { Language } from '../languages/language.entity';
import { LanguagesService } from '../languages/languages.service';
import type { Project } from '../projects/project.entity';
import { ProjectsService } from '../projects/projects.service';
import type { StatisticsCounters } from './statistics.response';

// Statistics are sums over the statistics columns that every translation row keeps current (architecture.md:
// maintained as data changes, never recomputed per request). Each answer is one SQL statement after the
// lookup of the addressed object; `recent_changes` is a correlated count over the indexed history.

/** Weblate's content-change actions (weblate-api.md §8.1), the ones `last_change`/`recent_changes` follow. */
const CONTENT_ACTIONS = CONTENT_CHANGE_ACTIONS;

/** `recent_changes` window before the last change (weblate-api.md §6.9). */
const RECENT_WINDOW = "interval '6 hours'";

const SUMS = `coalesce(sum(t.total), 0)::bigint AS total, coalesce(sum(t.total_words), 0)::bigint AS total_words,
  coalesce(sum(t.total_chars), 0)::bigint AS total_chars, coalesce(sum(t.translated), 0)::bigint AS translated,
  coalesce(sum(t.translated_words), 0)::bigint AS translated_words,
  coalesce(sum(t.translated_chars), 0)::bigint AS translated_chars, coalesce(sum(t.fuzzy), 0)::bigint AS fuzzy,
  coalesce(sum(t.approved), 0)::bigint AS approved, coalesce(sum(t.readonly), 0)::bigint AS readonly,
  coalesce(sum(t.failing_checks), 0)::bigint AS failing, coalesce(sum(t.have_suggestion), 0)::bigint AS suggestions,
  coalesce(sum(t.have_comment), 0)::bigint AS comments, max(t.last_change) AS last_change`;

/** A translation's row; `actions` is the SQL of the content actions' array, `lastChange` the last_change column. */
const rowColumns = (actions: string, lastChange: string): string => `t.total, t.total_words, t.total_chars, t.translated,
  t.translated_words, t.translated_chars, t.fuzzy, t.approved, t.readonly, t.failing_checks AS failing,
  t.have_suggestion AS suggestions, t.have_comment AS comments,
  ${lastChange}, l.code, l.name, coalesce(nullif(u.full_name, ''), u.username) AS last_author,
  (SELECT count(*) FROM changes ch
    WHERE ch.translation_id = t.id AND ch.action = ANY(${actions}) AND ch.timestamp >= t.last_change - ${RECENT_WINDOW})
    AS recent_changes`;

const ROW = rowColumns('$1::smallint[]', 't.last_change');

const ROW_JOINS = `translations t JOIN languages l ON l.id = t.language_id LEFT JOIN users u ON u.id = t.last_author_id`;

type TranslationStatisticsSqlRow = CounterRow & { code: string; name: string; last_author: string | null };

/** `/api/translations/<p>/<c>/<lang>/statistics/` by the path's slugs from `$n`, the actions as `actions`. */
const translationStatisticsSql = (n: number, actions: string, lastChange: string): string =>
  `SELECT ${rowColumns(actions, lastChange)} FROM ${ROW_JOINS}
     JOIN components c ON c.id = t.component_id JOIN projects p ON p.id = c.project_id
    WHERE p.slug = $${n} AND c.slug = $${n + 1} AND l.code = $${n + 2}`;

const TRANSLATION_STATISTICS = new PreparedStatement<TranslationStatisticsSqlRow>(translationStatisticsSql(2, '$1::smallint[]', 't.last_change'));

/**
 * The same row read by the auth guard's statement (read-with-access.ts, docs/performance.md "Read floor"). The
 * content actions are a fixed list of numbers, written into the text; last_change is selected as text, what pg
 * answers for it here (the counters go through Number() whichever way they arrive).
 */
export const TRANSLATION_STATISTICS_READ: DetailRead = {
  kind: 'translation',
  sql: (n) => translationStatisticsSql(n, `'{${CONTENT_ACTIONS.map((action) => Number(action)).join(',')}}'::smallint[]`, 't.last_change::text AS last_change'),
};

/** A row as pg returns it: bigint sums arrive as text, timestamptz as text (microseconds kept). */
type CounterRow = Record<
  | 'total' | 'total_words' | 'total_chars' | 'translated' | 'translated_words' | 'translated_chars' | 'fuzzy' | 'approved'
  | 'readonly' | 'failing' | 'suggestions' | 'comments',
  string | number
> & { last_change: string | null; recent_changes?: string | number };

export interface TranslationStatisticsRow {
  counters: StatisticsCounters;
  code: string;
  name: string;
  lastAuthor: string | null;
}

export interface ComponentStatisticsPage {
  projectSlug: string;
  componentSlug: string;
  page: ResolvedPage;
  count: number;
  items: TranslationStatisticsRow[];
}

@Injectable()
export class StatisticsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly projects: ProjectsService,
    private readonly components: ComponentsService,
    private readonly languages: LanguagesService,
  ) {}

  /** `/api/translations/<p>/<c>/<lang>/statistics/`: lookup and statistics in one statement. */
  /** `prefetched`: the row the auth guard read (TRANSLATION_STATISTICS_READ), if any. */
  async forTranslation(projectSlug: string, componentSlug: string, languageCode: string, prefetched?: unknown): Promise<TranslationStatisticsRow> {
    if (prefetched !== undefined) return toTranslationRow(prefetched as TranslationStatisticsSqlRow);
    const rows = await TRANSLATION_STATISTICS.run(this.dataSource, [CONTENT_ACTIONS, projectSlug, componentSlug, languageCode]);
    if (rows.length === 0) throw notFound();
    return toTranslationRow(rows[0]);
  }

  /** `/api/components/<p>/<c>/statistics/`: one item per translation, ordered by id; count + page queries. */
  async forComponent(projectSlug: string, componentSlug: string, pageRequest: PageRequest): Promise<ComponentStatisticsPage> {
    const component = await this.components.getBySlugs(projectSlug, componentSlug);
    const [{ count }] = await this.dataSource.query('SELECT count(*)::int AS count FROM translations WHERE component_id = $1', [component.id]);
    const page = resolvePage(pageRequest, count);
    const rows: Array<CounterRow & { code: string; name: string; last_author: string | null }> = await this.dataSource.query(
      `SELECT ${ROW} FROM ${ROW_JOINS} WHERE t.component_id = $2 ORDER BY t.id LIMIT $3 OFFSET $4`,
      [CONTENT_ACTIONS, component.id, page.size, page.offset],
    );
    return { projectSlug: component.project.slug, componentSlug: component.slug, page, count, items: rows.map(toTranslationRow) };
  }

  /** `/api/projects/<p>/statistics/`: every translation of every component of the project, glossaries included (§11.1). */
  async forProject(projectSlug: string, caller: ApiCaller | null): Promise<{ project: Project; counters: StatisticsCounters }> {
    const project = await this.projects.getBySlug(projectSlug);
    // Restricted components the caller cannot see are left out of the sums (src/common/auth/access-sql.ts).
    const [row]: CounterRow[] = await this.dataSource.query(
      `WITH s AS (SELECT ${SUMS} FROM translations t JOIN components c ON c.id = t.component_id
                  WHERE c.project_id = $2 AND ${caller?.isSuperuser ? 'TRUE' : `c.id IN (${visibleComponentIdsSql(caller)})`})
       SELECT s.*, (SELECT count(*) FROM changes ch
                     WHERE ch.project_id = $2 AND ${changeVisibleSql(caller, 'ch')} AND ch.action = ANY($1::smallint[])
                       AND ch.timestamp >= s.last_change - ${RECENT_WINDOW}) AS recent_changes
         FROM s`,
      [CONTENT_ACTIONS, project.id],
    );
    return { project, counters: toCounters(row) };
  }

  /** `/api/languages/<code>/statistics/`: every translation into the language; unused languages are 404 for non-admins (§5.5). */
  async forLanguage(ctx: RequestContext, code: string): Promise<{ language: Language; counters: StatisticsCounters }> {
    const language = await this.languages.getByCode(ctx, code);
    const [row]: CounterRow[] = await this.dataSource.query(
      `WITH s AS (SELECT ${SUMS} FROM translations t WHERE t.language_id = $2 AND ${visibleTranslation(ctx.caller, 't')})
       SELECT s.*, (SELECT count(*) FROM changes ch
                     WHERE ch.translation_id IN (SELECT id FROM translations vt WHERE language_id = $2 AND ${visibleTranslation(ctx.caller, 'vt')})
                       AND ch.action = ANY($1::smallint[]) AND ch.timestamp >= s.last_change - ${RECENT_WINDOW}) AS recent_changes
         FROM s`,
      [CONTENT_ACTIONS, language.id],
    );
    return { language, counters: toCounters(row) };
  }

  /** `/api/projects/<p>/languages/`: per-language sums of the project, ordered by language name (Weblate's order). */
  async projectLanguages(projectSlug: string, caller: ApiCaller | null): Promise<Array<{ code: string; name: string; counters: StatisticsCounters }>> {
    const project = await this.projects.getBySlug(projectSlug);
    const rows: Array<CounterRow & { code: string; name: string }> = await this.dataSource.query(
      `SELECT l.code, l.name, ${SUMS}
         FROM translations t JOIN components c ON c.id = t.component_id JOIN languages l ON l.id = t.language_id
        WHERE c.project_id = $1 AND ${visibleTranslation(caller, 't')}
        GROUP BY l.id, l.code, l.name
        ORDER BY l.name, l.code`,
      [project.id],
    );
    return rows.map((row) => ({ code: row.code, name: row.name, counters: toCounters(row) }));
  }
}

function toCounters(row: CounterRow): StatisticsCounters {
  return {
    total: Number(row.total),
    totalWords: Number(row.total_words),
    totalChars: Number(row.total_chars),
    translated: Number(row.translated),
    translatedWords: Number(row.translated_words),
    translatedChars: Number(row.translated_chars),
    fuzzy: Number(row.fuzzy),
    approved: Number(row.approved),
    readonly: Number(row.readonly),
    failing: Number(row.failing),
    suggestions: Number(row.suggestions),
    comments: Number(row.comments),
    lastChange: row.last_change,
    recentChanges: Number(row.recent_changes ?? 0),
  };
}

function toTranslationRow(row: CounterRow & { code: string; name: string; last_author: string | null }): TranslationStatisticsRow {
  return { counters: toCounters(row), code: row.code, name: row.name, lastAuthor: row.last_author };
}

/** Condition on a translations alias: its component is visible to the caller (src/common/auth/access-sql.ts). */
function visibleTranslation(caller: ApiCaller | null, t: string): string {
  return caller?.isSuperuser ? 'TRUE' : `${t}.component_id IN (${visibleComponentIdsSql(caller)})`;
}
