import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiValidationError, notFound } from '../../common/http/api-errors';
import type { RequestContext } from '../../common/http/request-context';
import { PageRequest, resolvePage, ResolvedPage } from '../../common/pagination/page-params';
import { parseNewLabel } from './dto/label-bodies';
import { LABEL_COLUMNS, type LabelRow } from './label.response';

const LABEL_ID = /^\d{1,9}$/;

/**
 * A project's labels (weblate-api.md §5 `/api/projects/{slug}/labels/`, 5.3+; DELETE 5.14+). The routes'
 * visibility and `project.edit` are checked by the guard (check-order.ts); names are unique per project.
 */
@Injectable()
export class LabelsService {
  constructor(private readonly dataSource: DataSource) {}

  async list(ctx: RequestContext, projectSlug: string, pageRequest: PageRequest): Promise<{ page: ResolvedPage; count: number; rows: LabelRow[] }> {
    if (!ctx.scopeFound) throw notFound();
    const [{ count }]: Array<{ count: number }> = await this.dataSource.query(
      'SELECT count(*)::int AS count FROM labels lb JOIN projects p ON p.id = lb.project_id WHERE p.slug = $1',
      [projectSlug],
    );
    const page = resolvePage(pageRequest, count);
    const rows: LabelRow[] = await this.dataSource.query(
      `SELECT ${LABEL_COLUMNS} FROM labels lb JOIN projects p ON p.id = lb.project_id WHERE p.slug = $1 ORDER BY lb.id LIMIT $2 OFFSET $3`,
      [projectSlug, page.size, page.offset],
    );
    return { page, count, rows };
  }

  /** POST → 201 with the label; a name the project already has is a 400 on `name` (Weblate's unique_together). */
  async create(projectSlug: string, body: unknown): Promise<LabelRow> {
    const label = parseNewLabel(body);
    const rows: LabelRow[] = await this.dataSource.query(
      `INSERT INTO labels (project_id, name, description, color)
       SELECT p.id, $2, $3, $4 FROM projects p WHERE p.slug = $1
       ON CONFLICT (project_id, name) DO NOTHING
       RETURNING ${LABEL_COLUMNS.replace(/lb\./g, '')}`,
      [projectSlug, label.name, label.description, label.color],
    );
    if (rows.length === 0) throw new ApiValidationError({ name: ['Label with this Project and Name already exists.'] });
    return rows[0];
  }

  /**
   * DELETE → 204; the label leaves every unit it was on (unit_labels cascade), as Weblate's m2m does. Those
   * units' rows are touched in the same statement, as a label change on a unit touches it (unit-labels.ts): a
   * units page derives its entity tag from its units' row versions (units-read.service.ts densePage), and
   * without a new version a client holding the old tag got 304 for a page that no longer showed the label.
   */
  async remove(projectSlug: string, labelId: string): Promise<void> {
    if (!LABEL_ID.test(labelId)) throw notFound();
    const [{ deleted }]: Array<{ deleted: number }> = await this.dataSource.query(
      `WITH gone AS (
         DELETE FROM labels lb USING projects p WHERE p.id = lb.project_id AND p.slug = $1 AND lb.id = $2 RETURNING lb.id
       ), touched AS (
         UPDATE units u SET pending = u.pending FROM unit_labels ul, gone WHERE ul.label_id = gone.id AND u.id = ul.unit_id
       )
       SELECT count(*)::int AS deleted FROM gone`,
      [projectSlug, Number(labelId)],
    );
    if (deleted === 0) throw notFound();
  }
}
