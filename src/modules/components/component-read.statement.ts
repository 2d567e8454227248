import { type DetailRead, versionColumn } from '../../common/auth/read-with-access';
import { entityFromJson } from '../../database/entity-json';
import { PreparedStatement } from '../../database/prepared-statement';
import type { Language } from '../languages/language.entity';
import type { Project } from '../projects/project.entity';
import type { Component } from './component.entity';

// The component detail as one named statement (docs/performance.md, "Read floor"): the component, its project,
// its source language and its add-ons' ids, as JSON rows fed to toComponentResponse through entity-shaped
// objects (src/database/entity-json.ts). Visibility is the auth guard's: the path names the component.
interface ComponentRow {
  c: Record<string, unknown>;
  p: Record<string, unknown>;
  sl: Record<string, unknown>;
  addon_ids: number[];
}

const componentFrom = (n: number): string =>
  `FROM components c JOIN projects p ON p.id = c.project_id JOIN languages sl ON sl.id = c.source_language_id
    WHERE p.slug = $${n} AND c.slug = $${n + 1}`;
/** The component's add-ons' ids (its `addons` links), for the component `c` of the caller's FROM. */
export const COMPONENT_ADDON_IDS = `(SELECT COALESCE(array_agg(a.id ORDER BY a.id), '{}') FROM addons a WHERE a.component_id = c.id)`;
const componentDetailSql = (n: number): string => `SELECT to_json(c) AS c, to_json(p) AS p, to_json(sl) AS sl, ${COMPONENT_ADDON_IDS} AS addon_ids ${componentFrom(n)}`;
const COMPONENT_DETAIL = new PreparedStatement<ComponentRow>(componentDetailSql(1));

/** The detail's body read by the auth guard's statement (read-with-access.ts). */
export const COMPONENT_DETAIL_READ: DetailRead = {
  kind: 'component',
  sql: componentDetailSql,
  // The body is the three rows, the add-ons' ids and the request's links (toComponentResponse).
  version: (n) => `SELECT ${versionColumn('c.xmin', 'p.xmin', 'sl.xmin', COMPONENT_ADDON_IDS)} ${componentFrom(n)}`,
};

/** The component at `/api/components/<project>/<component>/` as its response reads it (the guard's row when given), or null. */
export async function readComponentDetail(
  db: Parameters<PreparedStatement<ComponentRow>['run']>[0],
  prefetched: unknown,
  projectSlug: string,
  componentSlug: string,
): Promise<Component | null> {
  const row = (prefetched as ComponentRow | undefined) ?? (await COMPONENT_DETAIL.run(db, [projectSlug, componentSlug]))[0];
  if (row === undefined) return null;
  const component = entityFromJson<Component>(row.c);
  component.project = entityFromJson<Project>(row.p);
  component.sourceLanguage = entityFromJson<Language>(row.sl);
  component.addonIds = row.addon_ids;
  return component;
}
