import { Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBadRequestResponse, ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiProperty, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CheckOrder } from '../../common/auth/check-order';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { BulkEditBody, BulkEditResponse, BulkTranslateBody } from './dto/bulk-bodies';
import { BulkEditService } from './bulk-edit.service';
import { BulkTranslateService, type BulkItemResult, type BulkTranslateResult } from './bulk-translate.service';
import { ValidatedBody } from '../../common/http/validation';

/** One item's result in a bulk translate answer (OpenAPI shape). */
class BulkItemResultSchema {
  @ApiProperty({ description: 'Position of the item in the request (0-based)' }) index: number;
  @ApiProperty({ required: false, description: 'The unit the item named (successful items)' }) id?: number;
  @ApiProperty({ description: 'What PATCH /api/units/<id>/ would have answered: 200, 400, 403, 404 or 412' }) status: number;
  @ApiProperty({ required: false, type: Object, description: 'The DRF error body of a failed item' }) errors?: unknown;
}

class BulkTranslateResponse implements BulkTranslateResult {
  @ApiProperty({ description: 'Items applied (identical edits included; they record nothing)' }) updated: number;
  @ApiProperty() failed: number;
  @ApiProperty({ type: [BulkItemResultSchema] }) results: BulkItemResult[];
}

const BULK_EDIT_DESCRIPTION =
  "Glossa extension: Weblate's bulk edit (Tools → Bulk edit, which has no REST endpoint in Weblate). The units matching `q` " +
  'in needs editing, translated or approved get `state` (where the caller may edit them; approved ones, or approving, need ' +
  'review rights) and each change records 32 "Bulk status change"; their source strings get `add_flags`/`remove_flags` ' +
  '(where the caller holds source.edit). Needs translation.auto on the object.';

/**
 * Bulk routes (Glossa extensions, issue 14 item 5): Weblate's bulk edit over a project, component or
 * translation, and bulk translate of many strings of one translation.
 */
@ApiTags('units')
@ApiExtraModels(BulkItemResultSchema, BulkTranslateResponse)
@Controller('api')
export class BulkController {
  constructor(
    private readonly bulkEdit: BulkEditService,
    private readonly bulkTranslate: BulkTranslateService,
  ) {}

  @Post('projects/:project/bulk')
  @CheckOrder({ object: 'scope', permission: 'translation.auto' })
  @HttpCode(200)
  @ApiOperation({ operationId: 'bulkEditProject', summary: 'Bulk edit the strings of a project', description: BULK_EDIT_DESCRIPTION })
  @ApiBody({ type: BulkEditBody })
  @ApiOkResponse({ type: BulkEditResponse })
  editProject(@Ctx() ctx: RequestContext, @Param('project') project: string, @ValidatedBody() body: unknown): Promise<BulkEditResponse> {
    return this.bulkEdit.edit(ctx, { project }, body);
  }

  @Post('components/:project/:component/bulk')
  @CheckOrder({ object: 'scope', permission: 'translation.auto' })
  @HttpCode(200)
  @ApiOperation({ operationId: 'bulkEditComponent', summary: 'Bulk edit the strings of a component', description: BULK_EDIT_DESCRIPTION })
  @ApiBody({ type: BulkEditBody })
  @ApiOkResponse({ type: BulkEditResponse })
  editComponent(@Ctx() ctx: RequestContext, @Param('project') project: string, @Param('component') component: string, @ValidatedBody() body: unknown): Promise<BulkEditResponse> {
    return this.bulkEdit.edit(ctx, { project, component }, body);
  }

  @Post('translations/:project/:component/:language/bulk')
  @CheckOrder({ object: 'scope', permission: 'translation.auto' })
  @HttpCode(200)
  @ApiOperation({ operationId: 'bulkEditTranslation', summary: 'Bulk edit the strings of a translation', description: BULK_EDIT_DESCRIPTION })
  @ApiBody({ type: BulkEditBody })
  @ApiOkResponse({ type: BulkEditResponse })
  editTranslation(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
    @ValidatedBody() body: unknown,
  ): Promise<BulkEditResponse> {
    return this.bulkEdit.edit(ctx, { project, component, language }, body);
  }

  /** 200 with per-item results; 400 with the same list when `atomic` and an item failed (nothing applied). */
  @Post('translations/:project/:component/:language/units/bulk')
  @CheckOrder({ object: 'scope', permission: 'unit.edit' })
  @HttpCode(200)
  @ApiOperation({
    operationId: 'bulkTranslate',
    summary: 'Translate many strings of a translation',
    description:
      'Glossa extension: each item is applied as PATCH /api/units/<id>/ would apply it (same rules, automatic fixes, history, ' +
      'statistics and checks) and answered in `results` in input order; `if_match` is checked per item (412). With `atomic`, ' +
      'any failed item means nothing is applied and the answer is 400. At most BULK_MAX_ITEMS items.',
  })
  @ApiBody({ type: BulkTranslateBody })
  @ApiOkResponse({ type: BulkTranslateResponse })
  @ApiBadRequestResponse({
    description: 'An atomic request had a failed item (the per-item answer, nothing applied), or the request itself is invalid (DRF error body)',
    schema: {
      oneOf: [
        { $ref: getSchemaPath(BulkTranslateResponse) },
        { $ref: '#/components/schemas/ApiValidationError' },
        { $ref: '#/components/schemas/ApiErrorDetail' },
      ],
    },
  })
  async translate(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
    @ValidatedBody() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<BulkTranslateResult> {
    const outcome = await this.bulkTranslate.translate(ctx, project, component, language, body);
    res.status(outcome.status);
    return outcome.body;
  }
}
