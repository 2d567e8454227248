import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { resolvePage, type PageRequest, type ResolvedPage } from '../../common/pagination/page-params';
import type { ComponentAlertRow } from './component-alert.response';
import { ComponentsService } from './components.service';

/** The alerts of a component (component-alert.entity.ts), oldest first; anyone who can see the component reads them. */
@Injectable()
export class ComponentAlertsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly components: ComponentsService,
  ) {}

  async list(projectSlug: string, componentSlug: string, request: PageRequest): Promise<{ page: ResolvedPage; count: number; items: ComponentAlertRow[] }> {
    const component = await this.components.getBySlugs(projectSlug, componentSlug);
    const [{ count }]: Array<{ count: number }> = await this.dataSource.query('SELECT count(*)::int AS count FROM component_alerts WHERE component_id = $1', [component.id]);
    const page = resolvePage(request, count);
    const items: ComponentAlertRow[] = await this.dataSource.query(
      `SELECT name, details, timestamp::text AS timestamp, updated::text AS updated FROM component_alerts
        WHERE component_id = $1 ORDER BY timestamp, id LIMIT $2 OFFSET $3`,
      [component.id, page.size, page.offset],
    );
    return { page, count, items };
  }
}
