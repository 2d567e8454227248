import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CheckOrder } from '../../common/auth/check-order';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { LabelCreateBody } from './dto/label-bodies';
import { LabelResponse, toLabelResponse } from './label.response';
import { LabelsService } from './labels.service';
import { ValidatedBody } from '../../common/http/validation';

/**
 * A project's labels (weblate-api.md §5): `GET, POST /api/projects/{slug}/labels/` (5.3+) and
 * `DELETE /api/projects/{slug}/labels/{id}/` (5.14+). Anyone who sees the project lists them; `project.edit`
 * manages them (§2.5). The project object itself keeps the spec's fields (no `labels_url`, api-spec.md).
 */
@ApiTags('labels')
@ApiExtraModels(LabelResponse)
@Controller('api/projects/:project/labels')
export class LabelsController {
  constructor(private readonly labels: LabelsService) {}

  @Get()
  @ApiOperation({ operationId: 'listProjectLabels', summary: 'List the labels of a project, by id' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(LabelResponse)
  async list(@Ctx() ctx: RequestContext, @Param('project') project: string): Promise<ListEnvelope<LabelResponse>> {
    const { page, count, rows } = await this.labels.list(ctx, project, parsePageRequest(ctx.query));
    return listEnvelope(ctx, page, count, rows.map(toLabelResponse));
  }

  @Post()
  @HttpCode(201)
  @CheckOrder({ object: 'scope', permission: 'project.edit' })
  @ApiOperation({ operationId: 'createProjectLabel', summary: 'Create a label in a project' })
  @ApiBody({ type: LabelCreateBody })
  @ApiCreatedResponse({ type: LabelResponse })
  @ApiErrorResponses(400)
  async create(@Param('project') project: string, @ValidatedBody() body: unknown): Promise<LabelResponse> {
    return toLabelResponse(await this.labels.create(project, body));
  }

  @Delete(':label')
  @HttpCode(204)
  @CheckOrder({ object: 'scope', permission: 'project.edit' })
  @ApiOperation({ operationId: 'deleteProjectLabel', summary: 'Delete a label; it is removed from every string' })
  @ApiNoContentResponse()
  async remove(@Param('project') project: string, @Param('label') label: string): Promise<void> {
    await this.labels.remove(project, label);
  }
}
