import 'reflect-metadata';
import { Controller, Get, Inject, Module, Param, Query, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { Pool } from 'pg';
import { SESSION_SETTINGS } from '../database/session-settings';
import { CONTENT_CHANGE_ACTIONS } from '../modules/changes/change-actions';
import { FLOOR_ACTION_NAMES, FLOOR_STATEMENTS, FloorStatement } from './floor-statements';

// The floor of a read (issue 15 item 1): a minimal NestJS/Express process on the same framework versions as
// Glossa, connected with `pg` to the same database, answering each read scenario of the bench from ONE named
// (prepared) statement whose single column is the response body (floor-statements.ts). No auth, no guards,
// no interceptors, no validation: what Glossa measures against is routing + one round trip + sending.
// Started by run-bench.ts with DATABASE_URL and DATABASE_POOL_SIZE; prints its port on stdout when listening.

const POOL = Symbol('pool');

/** Page, page size and whether the request named the size (links keep it then), without DRF's validation. */
const pageOf = (query: Record<string, unknown>): [number, number, boolean] => [Number(query.page ?? 1), Number(query.page_size ?? 50), query.page_size !== undefined];

@Controller()
class FloorController {
  constructor(@Inject(POOL) private readonly pool: Pool) {}

  /** `/api/` needs no data: the floor sends the links without a statement (issue 15 compares it with /healthz). */
  @Get('api')
  root(@Req() request: Request, @Res() response: Response): void {
    const origin = originOf(request);
    const names = ['users', 'projects', 'components', 'translations', 'languages', 'changes', 'units'];
    send(response, JSON.stringify(Object.fromEntries(names.map((name) => [name, `${origin}/api/${name}/?format=api`]))));
  }

  @Get('api/projects/:project')
  project(@Req() request: Request, @Res() response: Response, @Param('project') project: string): Promise<void> {
    return this.answer(request, response, FLOOR_STATEMENTS.project, [project]);
  }

  @Get('api/components/:project/:component')
  component(@Req() request: Request, @Res() response: Response, @Param('project') project: string, @Param('component') component: string): Promise<void> {
    return this.answer(request, response, FLOOR_STATEMENTS.component, [project, component]);
  }

  @Get('api/components/:project/:component/translations')
  componentTranslations(
    @Req() request: Request,
    @Res() response: Response,
    @Param('project') project: string,
    @Param('component') component: string,
    @Query() query: Record<string, unknown>,
  ): Promise<void> {
    return this.answer(request, response, FLOOR_STATEMENTS.componentTranslations, [project, component, ...pageOf(query)]);
  }

  @Get('api/translations/:project/:component/:language')
  translation(
    @Req() request: Request,
    @Res() response: Response,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
  ): Promise<void> {
    return this.answer(request, response, FLOOR_STATEMENTS.translation, [project, component, language]);
  }

  @Get('api/translations/:project/:component/:language/units')
  units(
    @Req() request: Request,
    @Res() response: Response,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
    @Query() query: Record<string, unknown>,
  ): Promise<void> {
    return this.answer(request, response, FLOOR_STATEMENTS.units, [project, component, language, ...pageOf(query)]);
  }

  @Get('api/translations/:project/:component/:language/statistics')
  statistics(
    @Req() request: Request,
    @Res() response: Response,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
  ): Promise<void> {
    return this.answer(request, response, FLOOR_STATEMENTS.statistics, [CONTENT_CHANGE_ACTIONS, project, component, language]);
  }

  @Get('api/units/:id')
  unit(@Req() request: Request, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.answer(request, response, FLOOR_STATEMENTS.unit, [id]);
  }

  @Get('api/changes')
  changes(@Req() request: Request, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    return this.answer(request, response, FLOOR_STATEMENTS.changes, [FLOOR_ACTION_NAMES, ...pageOf(query)]);
  }

  @Get('api/changes/:id')
  change(@Req() request: Request, @Res() response: Response, @Param('id') id: string): Promise<void> {
    return this.answer(request, response, FLOOR_STATEMENTS.change, [FLOOR_ACTION_NAMES, id]);
  }

  private async answer(request: Request, response: Response, statement: FloorStatement, params: readonly unknown[]): Promise<void> {
    const { rows } = await this.pool.query<{ body: string }>({ name: statement.name, text: statement.text, values: [originOf(request), ...params] });
    if (rows.length === 0) response.status(404);
    send(response, rows.length === 0 ? '{"detail":"Not found."}' : rows[0].body);
  }
}

/** The origin Glossa's links start with outside production: the request's scheme and Host. */
const originOf = (request: Request): string => `${request.protocol}://${request.get('host') ?? '127.0.0.1'}`;

function send(response: Response, body: string): void {
  response.setHeader('Content-Type', 'application/json');
  response.end(body);
}

@Module({
  controllers: [FloorController],
  providers: [
    {
      provide: POOL,
      // Glossa's session settings (JIT off, UTC), so that the two plan and run their statements alike.
      useFactory: () => new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10), options: SESSION_SETTINGS.join(' ') }),
    },
  ],
})
class FloorModule {}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('floor-server needs DATABASE_URL');
  const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: ['error'], bodyParser: false });
  // As Glossa's create-app.ts: no ETag hashing of each body, no X-Powered-By.
  app.set('etag', false);
  app.disable('x-powered-by');
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as import('node:http').Server;
  server.keepAliveTimeout = 65_000;
  process.stdout.write(`${(server.address() as { port: number }).port}\n`);
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(() => app.get<Pool>(POOL).end())
      .then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
