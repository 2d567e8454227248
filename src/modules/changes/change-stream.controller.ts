import { applyDecorators, Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { errorResponseObject } from '../../common/openapi/api-error-responses';
import { ChangeStreamService } from './change-stream.service';
import { ChangeScope } from './changes.service';

const STREAM_DESCRIPTION = [
  'Glossa: Server-Sent Events. Each change is one event `change` whose `id` is its position token and whose `data` is',
  'the change object of the lists; comment lines (`: ping`) are heartbeats. The first block carries only the starting',
  'position as an `id`. Resume with the `Last-Event-ID` header (or `last_event_id`/`cursor`/`id__gt`); without one the',
  'stream starts with the changes made from now on. Changes are sent in feed order (by writing transaction, once every earlier transaction has finished), each once.',
].join(' ');

const STREAM_LIMIT_RESPONSE = errorResponseObject(429);

/** The stream's parameters: the list's filters and where to resume (change-stream.service.ts). */
function ApiChangeStream() {
  return applyDecorators(
    ApiProduces('text/event-stream'),
    ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The `id` of the last event received: the stream resumes after it' }),
    ApiQuery({ name: 'last_event_id', required: false, description: 'As the Last-Event-ID header, for clients that cannot set it', schema: { type: 'string' } }),
    ApiQuery({ name: 'cursor', required: false, description: 'A position token (an event id or a list cursor) to resume after', schema: { type: 'string' } }),
    ApiQuery({ name: 'id__gt', required: false, description: 'Resume after this change (0: from the beginning)', schema: { type: 'integer' } }),
    ApiQuery({ name: 'user', required: false, description: 'Username of the acting user' }),
    ApiQuery({ name: 'action', required: false, isArray: true, type: Number, description: 'Action codes, repeatable (weblate-api.md §8.1)' }),
    ApiQuery({ name: 'timestamp_after', required: false, description: 'ISO 8601, inclusive' }),
    ApiQuery({ name: 'timestamp_before', required: false, description: 'ISO 8601, inclusive' }),
    ApiResponse({
      status: 200,
      description: 'An endless event stream (`event: change`, `id: <position>`, `data: <change JSON>`)',
      content: { 'text/event-stream': { schema: { type: 'string', example: 'id: 812.42\nevent: change\ndata: {"id":42,...}\n\n' } } },
    }),
    ApiResponse({
      ...STREAM_LIMIT_RESPONSE,
      status: 429,
      description: 'Over the rate limit, or too many streams open (CHANGE_STREAM_MAX_OPEN per process, CHANGE_STREAM_MAX_PER_CALLER)',
    }),
  );
}

/**
 * The change stream routes. Registered before ChangesController (changes.module.ts) so `changes/stream` is not
 * taken for the change id `stream` by `changes/:id`.
 */
@ApiTags('changes')
@Controller('api')
export class ChangeStreamController {
  constructor(private readonly streams: ChangeStreamService) {}

  @Get('changes/stream')
  @ApiOperation({ operationId: 'streamChanges', summary: 'Stream changes (Server-Sent Events)', description: STREAM_DESCRIPTION })
  @ApiChangeStream()
  stream(@Ctx() ctx: RequestContext, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.streams.open(request, response, ctx, { kind: 'all' });
  }

  @Get('projects/:project/changes/stream')
  @ApiOperation({ operationId: 'streamProjectChanges', summary: 'Stream the changes of a project (Server-Sent Events)', description: STREAM_DESCRIPTION })
  @ApiChangeStream()
  streamForProject(
    @Ctx() ctx: RequestContext,
    @Req() request: Request,
    @Res() response: Response,
    @Param('project') projectSlug: string,
  ): Promise<void> {
    return this.streams.open(request, response, ctx, { kind: 'project', projectSlug });
  }

  @Get('components/:project/:component/changes/stream')
  @ApiOperation({ operationId: 'streamComponentChanges', summary: 'Stream the changes of a component (Server-Sent Events)', description: STREAM_DESCRIPTION })
  @ApiChangeStream()
  streamForComponent(
    @Ctx() ctx: RequestContext,
    @Req() request: Request,
    @Res() response: Response,
    @Param('project') projectSlug: string,
    @Param('component') componentSlug: string,
  ): Promise<void> {
    const scope: ChangeScope = { kind: 'component', projectSlug, componentSlug };
    return this.streams.open(request, response, ctx, scope);
  }

  @Get('translations/:project/:component/:language/changes/stream')
  @ApiOperation({ operationId: 'streamTranslationChanges', summary: 'Stream the changes of a translation (Server-Sent Events)', description: STREAM_DESCRIPTION })
  @ApiChangeStream()
  streamForTranslation(
    @Ctx() ctx: RequestContext,
    @Req() request: Request,
    @Res() response: Response,
    @Param('project') projectSlug: string,
    @Param('component') componentSlug: string,
    @Param('language') languageCode: string,
  ): Promise<void> {
    return this.streams.open(request, response, ctx, { kind: 'translation', projectSlug, componentSlug, languageCode });
  }
}
