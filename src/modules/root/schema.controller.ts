import { Controller, Get } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { currentOpenApiDocument } from '../../openapi/openapi-document';

/** The OpenAPI document at `/api/schema/`, with the same headers as every other API response. */
@Controller('api/schema')
export class SchemaController {
  @Get()
  @ApiExcludeEndpoint()
  schema(): unknown {
    return currentOpenApiDocument();
  }
}
