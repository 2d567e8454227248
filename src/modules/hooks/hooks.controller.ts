import { applyDecorators, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { NoAuthentication } from '../../common/auth/no-authentication';
import type { HookService } from '../../common/http/hook-paths';
import { HookResponse } from './hook.response';
import { type HookAnswer, HooksService } from './hooks.service';

/**
 * Weblate's incoming repository hooks (integration.md §1.1), outside /api/ as in Weblate. They read no
 * credentials (NoAuthentication), are rate-limited per client address under RATE_LIMIT_HOOKS
 * (src/ops/rate-limit.ts) and take bodies up to MAX_REQUEST_BODY_BYTES like every route. Routing is exact:
 * one route per service of HOOK_SERVICES (4.x routed only these names); others and other spellings are 404.
 */
@ApiTags('hooks')
@NoAuthentication()
@Controller('hooks')
export class HooksController {
  constructor(private readonly hooks: HooksService) {}

  @Post('github')
  @ServiceHookDocs('github', 'GitHub (`X-GitHub-Event: push`)')
  github(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<HookResponse> {
    return this.receive('github', request, response);
  }

  @Post('gitlab')
  @ServiceHookDocs('gitlab', 'GitLab (any body with `ref`)')
  gitlab(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<HookResponse> {
    return this.receive('gitlab', request, response);
  }

  @Post('bitbucket')
  @ServiceHookDocs('bitbucket', 'Bitbucket Cloud and Server (`X-Event-Key`: `repo:push`, `repo:refs_changed`, `pullrequest:fulfilled`, `pr:merged`)')
  bitbucket(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<HookResponse> {
    return this.receive('bitbucket', request, response);
  }

  @Post('pagure')
  @ServiceHookDocs('pagure', 'Pagure (`topic`: `git.receive`)')
  pagure(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<HookResponse> {
    return this.receive('pagure', request, response);
  }

  @Post('azure')
  @ServiceHookDocs('azure', 'Azure Repos (`eventType`: `git.push`)')
  azure(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<HookResponse> {
    return this.receive('azure', request, response);
  }

  @Post('gitea')
  @ServiceHookDocs('gitea', 'Gitea and Forgejo')
  gitea(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<HookResponse> {
    return this.receive('gitea', request, response);
  }

  @Post('gitee')
  @ServiceHookDocs('gitee', 'Gitee')
  gitee(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<HookResponse> {
    return this.receive('gitee', request, response);
  }

  @Get('update/:project')
  @ApiOperation({ operationId: 'getProjectUpdateHook', summary: 'Legacy update hook of a project (Weblate ≤ 5.13); queues a pull of its components' })
  @ApiOkResponse({ type: HookResponse })
  projectUpdate(@Req() request: Request, @Param('project') project: string, @Res({ passthrough: true }) response: Response): Promise<HookResponse> {
    return this.hooks.updateHook(request.method, project, null).then((answer) => send(response, answer));
  }

  @Post('update/:project')
  @ApiOperation({ operationId: 'postProjectUpdateHook', summary: 'Legacy update hook of a project (POST form)' })
  @ApiOkResponse({ type: HookResponse })
  projectUpdatePost(@Req() request: Request, @Param('project') project: string, @Res({ passthrough: true }) response: Response): Promise<HookResponse> {
    return this.projectUpdate(request, project, response);
  }

  @Get('update/:project/:component')
  @ApiOperation({ operationId: 'getComponentUpdateHook', summary: 'Legacy update hook of a component (Weblate ≤ 5.13); queues its pull' })
  @ApiOkResponse({ type: HookResponse })
  componentUpdate(
    @Req() request: Request,
    @Param('project') project: string,
    @Param('component') component: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<HookResponse> {
    return this.hooks.updateHook(request.method, project, component).then((answer) => send(response, answer));
  }

  @Post('update/:project/:component')
  @ApiOperation({ operationId: 'postComponentUpdateHook', summary: 'Legacy update hook of a component (POST form)' })
  @ApiOkResponse({ type: HookResponse })
  componentUpdatePost(
    @Req() request: Request,
    @Param('project') project: string,
    @Param('component') component: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<HookResponse> {
    return this.componentUpdate(request, project, component, response);
  }

  private async receive(service: HookService, request: Request, response: Response): Promise<HookResponse> {
    const answer = await this.hooks.serviceHook(service, request.method, {
      body: request.body,
      isJson: Boolean(request.is('application/json')),
      header: (name) => request.get(name),
    });
    return send(response, answer);
  }
}

/** The OpenAPI description shared by the service hooks. */
function ServiceHookDocs(service: HookService, provider: string): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      operationId: `receive${service[0].toUpperCase()}${service.slice(1)}Hook`,
      summary: `Push notification of ${provider}`,
      description:
        "The provider's push payload as JSON, or a form whose `payload` field holds it. Components whose repository " +
        'URL and branch match get a pull queued (one per component however many notifications arrive). No token is read. ' +
        '405 when ENABLE_HOOKS is off; 400 for a payload that cannot be read.',
    }),
    ApiBody({ schema: { type: 'object', additionalProperties: true } }),
    ApiOkResponse({ type: HookResponse, description: 'Updates queued' }),
    ApiCreatedResponse({ type: HookResponse, description: 'Ping, or an event that is not a push: "Hook working"' }),
    ApiAcceptedResponse({ type: HookResponse, description: 'No matching repositories found (or hooks disabled on their projects)' }),
  );
}

function send(response: Response, answer: HookAnswer): HookResponse {
  response.status(answer.status);
  return answer.body;
}
