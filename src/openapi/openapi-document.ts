import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, ParameterObject, ReferenceObject, SwaggerModule } from '@nestjs/swagger';
import { addDefaultErrorResponses } from '../common/openapi/api-error-responses';

/**
 * The document of the app installOpenApi was last given, built on its first use (`/api/schema/`, Swagger UI).
 * Scanning ~250 routes' decorators takes about a quarter of a second of CPU and leaves the document on the
 * heap; every start (and every e2e test file's app) paid it before any client asked for the document.
 */
let documentSource: INestApplication | undefined;
let document: OpenAPIObject | undefined;

const DESCRIPTION = `Translation management with a Weblate-compatible JSON API.

**Authentication.** Reads are public; every write (POST, PUT, PATCH, DELETE) needs an API token. Send it as
\`Authorization: Token <key>\` (Weblate's form) or \`Authorization: Bearer <key>\`. In Swagger UI press
*Authorize* and either enter \`Token <key>\` (with the word \`Token\`) under **token**, or only the key under
**bearer**. A missing token on a write, or an invalid token on any request, answers 401; a valid token
without the permission answers 403.

**Lists** use the \`count\`/\`next\`/\`previous\`/\`results\` envelope with \`page\` and \`page_size\`; every
link carries \`format=api\`. **Errors** have DRF's bodies: \`{"detail": "..."}\`, or for validation errors
an object of message lists per field. A method a path does not offer answers 405
(\`{"detail": "Method \\"X\\" not allowed."}\`) with the allowed methods in \`Allow\`. Paths end with \`/\` and are
case-sensitive: any other spelling of a path answers 404.

**Repository hooks.** \`/hooks/<service>/\` and \`/hooks/update/…\` sit outside /api/, as in Weblate: they read
no token, only queue repository pulls, and are counted per client address under their own rate.

**Rate limits.** Every answer carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and
\`X-RateLimit-Reset\`; over the limit the answer is 429 with \`Retry-After\`.`;

/** Both schemes set the same header; a route's security requirement lists them as alternatives. */
const TOKEN_REQUIRED = [{ token: [] }, { bearer: [] }];
/** Reads: anonymous (`{}`) or with a token (which then must be valid). */
const TOKEN_OPTIONAL = [...TOKEN_REQUIRED, {}];
const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** Builds the OpenAPI document from the controllers' decorators (architecture.md "OpenAPI"). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Glossa API')
    .setDescription(DESCRIPTION)
    .setVersion('0.1.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/', 'This Glossa server')
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'Weblate API token with its prefix: enter `Token <key>`, e.g. `Token wlu_0123456789abcdef`.',
      },
      'token',
    )
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The same API token as a bearer token: enter only the key.' }, 'bearer')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The operator\'s METRICS_TOKEN, for /metrics only.' }, 'metricsToken')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    // Every route names its operationId with @ApiOperation; this only covers a route that does not.
    operationIdFactory: (controller, method) => lowerFirst(`${controller.replace(/Controller$/, '')}${upperFirst(method)}`),
  });
  // Weblate's routes all end in `/` (weblate-api.md §1.1); document them the way clients must call them.
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([route, item]) => [route.endsWith('/') ? route : `${route}/`, item]),
  );
  document.security = TOKEN_OPTIONAL;
  for (const [route, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      // The repository hooks read no token (src/common/auth/no-authentication.ts), writes included.
      if (route.startsWith('/hooks/')) operation.security = [];
      if (WRITE_METHODS.has(method)) operation.security ??= TOKEN_REQUIRED;
      if (operation.parameters) operation.parameters = mergeHeaderParameters(operation.parameters);
    }
  }
  addDefaultErrorResponses(document);
  Object.assign(document.paths, OPERATOR_PATHS);
  return document;
}

const READINESS_SCHEMA = {
  type: 'object',
  required: ['status', 'checks'],
  properties: {
    status: { type: 'string', enum: ['ok', 'unavailable'] },
    checks: {
      type: 'object',
      description: '`ok`, or what went wrong, per dependency (`database`, `job_queue`; `shutdown` while draining)',
      additionalProperties: { type: 'string' },
    },
  },
};

/**
 * The operator endpoints outside /api/ (src/ops/health.ts): plain Express handlers, so Nest's scanner does
 * not see them. Described here so generated clients and Swagger UI know them too; no token, no rate limit.
 */
const OPERATOR_PATHS: OpenAPIObject['paths'] = {
  '/healthz': {
    get: {
      operationId: 'getLiveness',
      summary: 'Liveness: the process answers HTTP',
      tags: ['operations'],
      security: [],
      responses: {
        200: {
          description: 'Alive',
          content: { 'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } } } },
        },
      },
    },
  },
  '/readyz': {
    get: {
      operationId: 'getReadiness',
      summary: 'Readiness: the database and the job queue answer',
      tags: ['operations'],
      security: [],
      responses: {
        200: { description: 'Ready', content: { 'application/json': { schema: READINESS_SCHEMA } } },
        503: { description: 'Not ready (a dependency failed, or the process is shutting down)', content: { 'application/json': { schema: READINESS_SCHEMA } } },
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'getPrometheusMetrics',
      summary: 'Prometheus metrics (text exposition format)',
      description:
        'Exposed as the METRICS setting says: `public` (no token; the default outside production), `token` ' +
        '(`Authorization: Bearer <METRICS_TOKEN>`; the default in production when METRICS_TOKEN is set) or `off` ' +
        '(404; the default in production otherwise).',
      tags: ['operations'],
      security: [{}, { metricsToken: [] }],
      responses: {
        200: { description: 'Metrics', content: { 'text/plain': { schema: { type: 'string' } } } },
        401: {
          description: 'METRICS=token and the bearer token is missing or wrong',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiErrorDetail' } } },
        },
        404: { description: 'METRICS=off', content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiErrorDetail' } } } },
      },
    },
  },
};

/** Serves Swagger UI at `/api/docs/`; the document is built once, on its first request. */
export function installOpenApi(app: INestApplication): void {
  documentSource = app;
  document = undefined;
  SwaggerModule.setup('api/docs', app, currentOpenApiDocument, {
    raw: false,
    customSiteTitle: 'Glossa API',
    // The token entered under "Authorize" survives a page reload.
    swaggerOptions: { persistAuthorization: true },
  });
}

/** The document of the installed app, built on the first call. */
export function currentOpenApiDocument(): OpenAPIObject {
  if (!documentSource) throw new Error('The OpenAPI document is not installed.');
  document ??= buildOpenApiDocument(documentSource);
  return document;
}

/**
 * Nest documents every `@Headers('if-match')` argument as a *required* header parameter, beside the
 * `@ApiHeader` that describes it. Headers are case-insensitive and Glossa's request headers (conditional
 * requests) are all optional: keep one parameter per header, the described one, optional unless it says so.
 */
function mergeHeaderParameters(parameters: Array<ParameterObject | ReferenceObject>): Array<ParameterObject | ReferenceObject> {
  const headers = new Map<string, ParameterObject>();
  for (const parameter of parameters) {
    if (!('in' in parameter) || parameter.in !== 'header') continue;
    const key = parameter.name.toLowerCase();
    const seen = headers.get(key);
    if (!seen || (!seen.description && parameter.description)) headers.set(key, parameter);
  }
  return parameters.flatMap((parameter) => {
    if (!('in' in parameter) || parameter.in !== 'header') return [parameter];
    const kept = headers.get(parameter.name.toLowerCase());
    if (kept !== parameter) return [];
    return [parameter.description ? parameter : { ...parameter, required: false }];
  });
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
