import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

let document: OpenAPIObject | undefined;

/** Builds the OpenAPI document from the controllers' decorators (architecture.md "OpenAPI"). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Glossa API')
    .setDescription(
      'Translation management with a Weblate-compatible JSON API. Every link carries `format=api`; lists use ' +
        'the `count`/`next`/`previous`/`results` envelope with `page` and `page_size`.',
    )
    .setVersion('0.1.0')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <key>' }, 'token')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  // Weblate's routes all end in `/` (weblate-api.md §1.1); document them the way clients must call them.
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([route, item]) => [route.endsWith('/') ? route : `${route}/`, item]),
  );
  return document;
}

/** Builds the document once and serves Swagger UI at `/api/docs/`. */
export function installOpenApi(app: INestApplication): OpenAPIObject {
  document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, { raw: false, customSiteTitle: 'Glossa API' });
  return document;
}

export function currentOpenApiDocument(): OpenAPIObject {
  if (!document) throw new Error('The OpenAPI document has not been built yet.');
  return document;
}
