import type { INestApplicationContext } from '@nestjs/common';
import { SingleBar } from 'cli-progress';
import { DataSource } from 'typeorm';
import { createGlossaApp } from '../bootstrap/create-app';
import { RequestContext } from '../common/http/request-context';
import { LinkBuilder } from '../common/links/link-builder';
import type { AppConfig } from '../config/app-config';
import { ComponentWriterService } from '../modules/components/component-writer.service';
import { CliError } from './users';

export interface ImportOptions {
  project: string;
  slug: string;
  name?: string;
  repo: string;
  filemask: string;
  fileFormat: string;
  branch?: string;
  template?: string;
  sourceLanguage?: string;
  /** Receives progress (0-100); default: a progress bar on stderr. */
  onProgress?: (percent: number) => void;
}

interface TaskRow {
  status: string;
  progress: number;
  result: unknown;
}

const POLL_MS = 300;

/**
 * `glossa import`: creates the component exactly as POST /api/projects/<slug>/components/ does (same
 * validation, same background job), as a superuser, then follows its task until it finishes. The job may
 * run in this process or in any server sharing the database (pg-boss spreads it).
 */
export async function importComponent(config: AppConfig, options: ImportOptions): Promise<{ translations: number; units: number }> {
  const glossa = await createGlossaApp({ ...config, demo: false }, { logger: false });
  try {
    return await importIntoApp(glossa.app, config, options);
  } finally {
    await glossa.close();
  }
}

/** The import itself, on an application that is already running (this process's own, or a server's). */
export async function importIntoApp(app: INestApplicationContext, config: AppConfig, options: ImportOptions): Promise<{ translations: number; units: number }> {
  const dataSource = app.get(DataSource);
  const admin: Array<{ id: number; username: string }> = await dataSource.query(
    'SELECT id, username FROM users WHERE is_superuser AND is_active ORDER BY id LIMIT 1',
  );
  const ctx = new RequestContext(new LinkBuilder(config.siteUrl, config.siteUrl, null), '/cli/import', {});
  // The CLI runs with the operator's authority over the database; writes need a superuser caller.
  ctx.caller = { id: admin[0]?.id ?? 0, username: admin[0]?.username ?? 'cli', isSuperuser: true };
  const body: Record<string, unknown> = {
    name: options.name ?? options.slug,
    slug: options.slug,
    vcs: 'git',
    repo: options.repo,
    filemask: options.filemask,
    file_format: options.fileFormat,
  };
  if (options.branch) body.branch = options.branch;
  if (options.template) body.template = options.template;
  if (options.sourceLanguage) body.source_language = options.sourceLanguage;
  let component;
  try {
    component = await app.get(ComponentWriterService, { strict: false }).create(ctx, options.project, body);
  } catch (error) {
    throw new CliError(describeApiError(error));
  }
  const taskId = component.taskId;
  if (!taskId) throw new CliError('The component was created but no import task was queued.');

  const bar = options.onProgress ? undefined : new SingleBar({ format: 'Importing [{bar}] {percentage}% | {status}', hideCursor: true });
  bar?.start(100, 0, { status: 'queued' });
  let task: TaskRow;
  for (;;) {
    const rows: TaskRow[] = await dataSource.query('SELECT status, progress, result FROM tasks WHERE id = $1', [taskId]);
    if (rows.length === 0) throw new CliError(`Task ${taskId} disappeared (was the component removed?).`);
    task = rows[0];
    bar?.update(task.progress, { status: task.status });
    options.onProgress?.(task.progress);
    if (task.status === 'completed' || task.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  bar?.stop();
  if (task.status === 'failed') throw new CliError(`Import failed: ${typeof task.result === 'string' ? task.result : JSON.stringify(task.result)}`);
  const result = (typeof task.result === 'string' ? JSON.parse(task.result) : task.result) as { translations: number; units: number };
  return { translations: result.translations, units: result.units };
}

/** API errors carry DRF bodies ({detail} or {field: [messages]}); show them as the API would. */
function describeApiError(error: unknown): string {
  const response = (error as { getResponse?: () => unknown }).getResponse?.();
  if (response && typeof response === 'object') return JSON.stringify(response);
  return error instanceof Error ? error.message : String(error);
}
