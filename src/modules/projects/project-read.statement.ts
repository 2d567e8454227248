import { type DetailRead, versionColumn } from '../../common/auth/read-with-access';
import { entityFromJson } from '../../database/entity-json';
import { PreparedStatement } from '../../database/prepared-statement';
import type { Project } from './project.entity';

// The project detail as one named statement (docs/performance.md, "Read floor"), fed to toProjectResponse
// through an entity-shaped object (src/database/entity-json.ts). Visibility is the auth guard's.
const projectDetailSql = (n: number): string => `SELECT to_json(p) AS p FROM projects p WHERE p.slug = $${n}`;
const PROJECT_DETAIL = new PreparedStatement<{ p: Record<string, unknown> }>(projectDetailSql(1));

/** The detail's body read by the auth guard's statement (read-with-access.ts). */
export const PROJECT_DETAIL_READ: DetailRead = {
  kind: 'project',
  sql: projectDetailSql,
  // The body is the project's row and the request's links (toProjectResponse).
  version: (n) => `SELECT ${versionColumn('p.xmin')} FROM projects p WHERE p.slug = $${n}`,
};

/** The project as its response reads it (the guard's row when given), or null. */
export async function readProjectDetail(db: Parameters<typeof PROJECT_DETAIL.run>[0], prefetched: unknown, slug: string): Promise<Project | null> {
  const row = (prefetched as { p: Record<string, unknown> } | undefined) ?? (await PROJECT_DETAIL.run(db, [slug]))[0];
  return row === undefined ? null : entityFromJson<Project>(row.p);
}
