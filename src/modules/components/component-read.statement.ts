import type { DetailRead } from '../../common/auth/read-with-access';
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

const componentDetailSql = (n: number): string =>
  `SELECT to_json(c) AS c, to_json(p) AS p, to_json(sl) AS sl,
          (SELECT COALESCE(array_agg(a.id ORDER BY a.id), '{}') FROM addons a WHERE a.component_id = c.id) AS addon_ids
     FROM components c JOIN projects p ON p.id = c.project_id JOIN languages sl ON sl.id = c.source_language_id
    WHERE p.slug = $${n} AND c.slug = $${n + 1}`;
const COMPONENT_DETAIL = new PreparedStatement<ComponentRow>(componentDetailSql(1));

/** The detail's body read by the auth guard's statement (read-with-access.ts). */
export const COMPONENT_DETAIL_READ: DetailRead = { kind: 'component', sql: componentDetailSql };

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
