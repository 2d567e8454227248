import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { AppModule } from '../app.module';
import { loadConfig } from '../config/app-config';
import { buildOpenApiDocument } from './openapi-document';

/**
 * Writes openapi/openapi.json from the controllers' decorators (`npm run openapi:write`). Nest's preview
 * mode resolves the module graph without instantiating providers, so no database is needed; CI runs this
 * and fails on `git diff`, which keeps the committed document in step with the code.
 */
async function main(): Promise<void> {
  const config = { ...loadConfig({}), demo: false };
  const app = await NestFactory.create(AppModule.forRoot(config, { url: 'postgres://preview.invalid/glossa', poolSize: 1 }), {
    preview: true,
    logger: false,
  });
  const document = buildOpenApiDocument(app);
  const target = path.resolve(process.argv[2] ?? 'openapi/openapi.json');
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
  await app.close();
  console.log(`Wrote ${path.relative(process.cwd(), target)} (${Object.keys(document.paths).length} paths)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
