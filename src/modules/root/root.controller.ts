import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiRootResponse, toApiRootResponse } from './root.response';

@ApiTags('root')
@Controller('api')
export class RootController {
  @Get()
  @ApiOperation({ operationId: 'getApiRoot', summary: 'API root: links to every list endpoint' })
  @ApiOkResponse({ type: ApiRootResponse, description: 'Links to every list endpoint' })
  root(@Ctx() ctx: RequestContext): ApiRootResponse {
    return toApiRootResponse(ctx.links);
  }
}
