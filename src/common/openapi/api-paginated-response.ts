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

/** `page` and `page_size` (weblate-api.md §3); optional, which Swagger would not assume by itself. */
export function ApiPagingQuery() {
  return applyDecorators(
    ApiQuery({ name: 'page', required: false, description: '1-based page number or `last`', schema: { type: 'string' } }),
    ApiQuery({ name: 'page_size', required: false, description: 'Items per page (default 50, max 1000)', schema: { type: 'integer' } }),
  );
}
