import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { OpenAPIObject, OperationObject, ResponseObject, SchemaObject } from '@nestjs/swagger';

/**
 * The two error bodies of Weblate's API (weblate-api.md §4), added to `components.schemas` by
 * {@link addDefaultErrorResponses}: DRF's `{"detail": "Not found."}`, and a validation error with the
 * messages for each rejected field (`{"slug": ["This field is required."]}`, `non_field_errors` for the
 * body as a whole).
 */
const ERROR_SCHEMAS: Record<string, SchemaObject> = {
  ApiErrorDetail: {
    type: 'object',
    description: 'DRF error body',
    required: ['detail'],
    properties: { detail: { type: 'string', example: 'Not found.' } },
  },
  ApiValidationError: {
    type: 'object',
    description: 'DRF validation error: the messages for each rejected field (`non_field_errors` for the body as a whole)',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { slug: ['This field is required.'] },
  },
};

export type ApiErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 412 | 423 | 429;

/** Example bodies (Weblate's own messages where it has one), shown by Swagger UI per response. */
const EXAMPLES: Record<ApiErrorStatus, unknown> = {
  400: { slug: ['This field is required.'] },
  401: { detail: 'Invalid token.' },
  403: { detail: 'You do not have permission to perform this action.' },
  404: { detail: 'Not found.' },
  405: { detail: 'Method "PUT" not allowed.' },
  409: { detail: 'Conflict.' },
  412: { detail: 'Precondition failed.' },
  423: { detail: 'Locked.' },
  429: { detail: 'Request was throttled. Expected available in 60 seconds.' },
};

/** Weblate's throttling headers (weblate-api.md §2.4); every /api/ answer has the X-RateLimit-* ones. */
const RATE_LIMIT_HEADERS: ResponseObject['headers'] = {
  'Retry-After': { description: 'Seconds until the rate window starts over', schema: { type: 'integer' } },
  'X-RateLimit-Limit': { description: 'Requests allowed per window', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window starts over', schema: { type: 'integer' } },
};

const DESCRIPTIONS: Record<ApiErrorStatus, string> = {
  400: 'Invalid request: a validation error (`{"field": ["message"]}`) or `{"detail": "..."}`',
  401: 'Missing or invalid token (`{"detail": "Invalid token."}`)',
  403: 'The token is valid but may not do this (`{"detail": "You do not have permission to perform this action."}`)',
  404: 'No such object, or an invalid page (`{"detail": "Not found."}`)',
  405: 'Method not allowed on this path (`{"detail": "Method \\"X\\" not allowed."}`)',
  409: 'Conflict with the current state of the object',
  412: 'Precondition failed',
  423: 'The object is locked',
  429: 'Over the rate limit (anonymous callers by IP, users by account); `Retry-After` says when to try again',
};

/** The response object for one error status (`{detail}`; 400 also as a validation error object). */
export function errorResponseObject(status: ApiErrorStatus): ResponseObject {
  const detail = { $ref: '#/components/schemas/ApiErrorDetail' };
  const schema = status === 400 ? { oneOf: [{ $ref: '#/components/schemas/ApiValidationError' }, detail] } : detail;
  const response: ResponseObject = { description: DESCRIPTIONS[status], content: { 'application/json': { schema, example: EXAMPLES[status] } } };
  if (status === 429) response.headers = RATE_LIMIT_HEADERS;
  return response;
}

/**
 * Documents error responses of a route beyond the defaults that {@link addDefaultErrorResponses} adds to
 * every operation, e.g. `@ApiErrorResponses(400)` on a GET that validates its filters.
 */
export function ApiErrorResponses(...statuses: ApiErrorStatus[]) {
  return applyDecorators(
    ...statuses.map((status) => {
      const { description, content } = errorResponseObject(status);
      return ApiResponse({ status, description, content });
    }),
  );
}

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** Names of the shared responses in `components.responses` that operations refer to. */
const SHARED_RESPONSES: Partial<Record<ApiErrorStatus, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  429: 'TooManyRequests',
};

/**
 * The errors every operation can answer (weblate-api.md §2, §4), added where a route did not document
 * them itself: 401 for an invalid token on any request; 404 for objects named in the path and for GET lists
 * (an invalid `page`); 400 for request bodies and query filters (`q`, `format`, `timestamp_after`, …);
 * 429 for everything under /api/ (rate limiting, src/ops/rate-limit.ts); 403 for writes, which need a
 * superuser. Each refers to one shared response in `components.responses`. 405 is answered for methods a
 * path does not offer, so it belongs to no operation; the document's description mentions it.
 */
export function addDefaultErrorResponses(document: OpenAPIObject): void {
  document.components ??= {};
  document.components.schemas ??= {};
  Object.assign(document.components.schemas, structuredClone(ERROR_SCHEMAS));
  document.components.responses ??= {};
  for (const [status, name] of Object.entries(SHARED_RESPONSES)) {
    document.components.responses[name] = errorResponseObject(Number(status) as ApiErrorStatus);
  }
  for (const [route, item] of Object.entries(document.paths)) {
    for (const [method, value] of Object.entries(item)) {
      if (!value || typeof value !== 'object' || !('responses' in value)) continue;
      const operation = value as OperationObject;
      const responses = operation.responses as Record<string, unknown>;
      const statuses: ApiErrorStatus[] = [];
      const filters = (operation.parameters ?? []).some((p) => 'in' in p && p.in === 'query' && p.name !== 'page' && p.name !== 'page_size');
      if (operation.requestBody || filters) statuses.push(400);
      if (route.startsWith('/hooks/')) {
        // The repository hooks read no token (no 401/403) and are rate-limited under RATE_LIMIT_HOOKS.
        if (route.includes('{')) statuses.push(404);
        statuses.push(429);
      } else {
        statuses.push(401);
        if (WRITE_METHODS.has(method)) statuses.push(403);
        if (route.includes('{') || (method === 'get' && route !== '/api/')) statuses.push(404);
        if (route.startsWith('/api/')) statuses.push(429);
      }
      for (const status of statuses) responses[status] ??= { $ref: `#/components/responses/${SHARED_RESPONSES[status]}` };
    }
  }
}
