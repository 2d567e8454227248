import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiQuery, getSchemaPath } from '@nestjs/swagger';

/** Documents a list envelope (api-spec.md "List envelope") whose results are `model` items. */
export function ApiPaginatedResponse(model: Type<unknown>) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      description: 'List envelope',
      schema: {
        type: 'object',
        required: ['count', 'next', 'previous', 'results'],
        properties: {
          count: { type: 'integer' },
          next: { type: 'string', format: 'uri', nullable: true },
          previous: { type: 'string', format: 'uri', nullable: true },
          results: { type: 'array', items: { $ref: getSchemaPath(model) } },
        },
      },
    }),
  );
}

/**
 * A list that pages by number (the list envelope) or, when the request names a cursor, by cursor: DRF's
 * CursorPagination envelope (`next`, `previous` always null, `results`; no `count`).
 */
export function ApiPaginatedOrCursorResponse(model: Type<unknown>) {
  const results = { type: 'array', items: { $ref: getSchemaPath(model) } } as const;
  return applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      description: 'List envelope; with `cursor` or `id__gt`, the cursor envelope',
      schema: {
        oneOf: [
          {
            type: 'object',
            title: 'Page',
            required: ['count', 'next', 'previous', 'results'],
            properties: {
              count: { type: 'integer' },
              next: { type: 'string', format: 'uri', nullable: true },
              previous: { type: 'string', format: 'uri', nullable: true },
              results,
            },
          },
          {
            type: 'object',
            title: 'CursorPage',
            required: ['next', 'previous', 'results'],
            properties: {
              next: { type: 'string', format: 'uri', nullable: true, description: 'The cursor after the last result; null when the page is empty' },
              previous: { type: 'string', nullable: true, description: 'Always null: cursors walk forward' },
              results,
            },
          },
        ],
      },
    }),
  );
}

/** `page` and `page_size` (weblate-api.md §3); optional, which Swagger would not assume by itself. */
export function ApiPagingQuery() {
  return applyDecorators(
    ApiQuery({ name: 'page', required: false, description: '1-based page number or `last`', schema: { type: 'string' } }),
    ApiQuery({ name: 'page_size', required: false, description: 'Items per page (default 50, max 1000)', schema: { type: 'integer' } }),
  );
}
