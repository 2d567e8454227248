import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import type { RawJson } from '../../common/serialization/json-writer';
import { ApiRootResponse, RootAnswers } from './root.response';

@ApiTags('root')
@Controller('api')
export class RootController {
  private readonly answers = new RootAnswers();

  @Get()
  @ApiOperation({ operationId: 'getApiRoot', summary: 'API root: links to every list endpoint' })
  @ApiOkResponse({ type: ApiRootResponse, description: 'Links to every list endpoint' })
  root(@Ctx() ctx: RequestContext): RawJson {
    const answer = this.answers.for(ctx.links);
    ctx.etag = answer.etag;
    return answer.json;
  }
}
