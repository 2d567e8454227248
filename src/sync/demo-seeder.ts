import { Inject, Injectable, Logger } from '@nestjs/common';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { buildDemoRepository, DEMO_BRANCH } from '../demo/demo-repository';
import { Component } from '../modules/components/component.entity';
import { Project } from '../modules/projects/project.entity';
import { ComponentImportService } from './component-import.service';
import { DEFAULT_MESSAGE_TEMPLATES } from './component-defaults';
import { DEMO_REPOSITORY_DIRNAME } from './working-copy.service';

// Demo mode (DEMO, on by default with the embedded database): an empty installation gets one project with
// one component built from the files in demo/, imported before the server answers, so the API has real
// data from its first request.

export const DEMO_PROJECT = { name: 'Demo', slug: 'demo', web: 'https://example.org/' } as const;
export const DEMO_COMPONENT = {
  name: 'App',
  slug: 'app',
  filemask: 'translations/*/app.json',
  template: 'sources/app.json',
  fileFormat: 'json-nested',
} as const;

@Injectable()
export class DemoSeeder {
  private readonly logger = new Logger(DemoSeeder.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly imports: ComponentImportService,
  ) {}

  /**
   * Seeds the demo when demo mode is on and there are no projects yet; resolves with whether it did.
   * Needs the languages table filled first (English is the source language). An import failure removes
   * the half-made project again and is thrown, so the next start tries again.
   */
  async run(): Promise<boolean> {
    if (!this.config.demo) return false;
    const [{ projects }] = await this.dataSource.query('SELECT count(*)::int AS projects FROM projects');
    if (projects > 0) return false;
    const english: Array<{ id: number }> = await this.dataSource.query("SELECT id FROM languages WHERE code = 'en'");
    if (english.length === 0) throw new Error('The demo needs the language "en"; fill the languages table first.');
    const repository = await buildDemoRepository(path.join(this.config.dataDir, DEMO_REPOSITORY_DIRNAME));

    let created: { projectId: number; componentId: number };
    try {
      created = await this.createDemoComponent(repository, english[0].id);
    } catch (error) {
      // Another instance sharing the database seeded it first.
      if ((error as { code?: string }).code === '23505' || (error as { driverError?: { code?: string } }).driverError?.code === '23505') {
        return false;
      }
      throw error;
    }
    try {
      // Synchronously rather than queued: the data must be there when the server starts answering.
      const result = await this.imports.importComponent(created.componentId, { allowLocal: true });
      this.logger.log(`Demo project created: ${result.translations} translations, ${result.units} strings`);
      return true;
    } catch (error) {
      await this.dataSource.query('DELETE FROM projects WHERE id = $1', [created.projectId]);
      throw error;
    }
  }

  private createDemoComponent(repository: string, sourceLanguageId: number): Promise<{ projectId: number; componentId: number }> {
    return this.dataSource.transaction(async (manager) => {
      const project = await manager.getRepository(Project).save(manager.getRepository(Project).create({ ...DEMO_PROJECT }));
      const component = await manager.getRepository(Component).save(
        manager.getRepository(Component).create({
          ...DEMO_COMPONENT,
          ...DEFAULT_MESSAGE_TEMPLATES,
          projectId: project.id,
          sourceLanguageId,
          repo: repository,
          // Pushes go back to the demo repository (it accepts them), so the whole round trip can be tried.
          push: repository,
          branch: DEMO_BRANCH,
        }),
      );
      return { projectId: project.id, componentId: component.id };
    });
  }
}
