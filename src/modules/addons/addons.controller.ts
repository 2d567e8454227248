import { Controller, Delete, Get, HttpCode, Param, Patch, Put } from '@nestjs/common';
import { ApiBody, ApiExtension, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses';
import { ApiPaginatedResponse, ApiPagingQuery } from '../../common/openapi/api-paginated-response';
import { listEnvelope, ListEnvelope } from '../../common/pagination/list-envelope';
import { parsePageRequest } from '../../common/pagination/page-params';
import { AddonResponse, toAddonResponse } from './addon.response';
import { AddonsService } from './addons.service';
import { AddonUpdateDto } from './dto/addon-write.dto';
import { toWebhookDeliveryResponse, WebhookDeliveryResponse } from './webhook-delivery.response';
import { ValidatedBody } from '../../common/http/validation';

/** `/api/addons/` and `/api/addons/<id>/` (weblate-api.md §5.12), and the delivery log of a webhook add-on. */
@ApiTags('addons')
@ApiExtraModels(AddonResponse)
@Controller('api/addons')
export class AddonsController {
  constructor(private readonly addons: AddonsService) {}

  @Get()
  @ApiOperation({ operationId: 'listAddons', summary: 'List add-ons', description: 'Add-ons the caller can manage (component.edit or project.edit), as the newest Weblate lists them.' })
  @ApiPagingQuery()
  @ApiPaginatedResponse(AddonResponse)
  async list(@Ctx() ctx: RequestContext): Promise<ListEnvelope<AddonResponse>> {
    const { page, count, items } = await this.addons.list(ctx.caller, parsePageRequest(ctx.query));
    return listEnvelope(ctx, page, count, items.map((row) => toAddonResponse(row, ctx.links)));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getAddon', summary: 'Get an add-on', description: '404 unless the caller can manage it.' })
  @ApiOkResponse({ type: AddonResponse })
  async detail(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<AddonResponse> {
    return toAddonResponse(await this.addons.get(ctx, id), ctx.links);
  }

  @Put(':id')
  @ApiOperation({ operationId: 'replaceAddon', summary: 'Replace an add-on’s configuration' })
  @ApiBody({ type: AddonUpdateDto })
  @ApiOkResponse({ type: AddonResponse })
  @ApiErrorResponses(400)
  async replace(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() body: unknown): Promise<AddonResponse> {
    return toAddonResponse(await this.addons.update(ctx, id, body, 'replace'), ctx.links);
  }

  @Patch(':id')
  @ApiOperation({ operationId: 'updateAddon', summary: 'Update an add-on’s configuration (partial)' })
  @ApiBody({ type: AddonUpdateDto })
  @ApiOkResponse({ type: AddonResponse })
  @ApiErrorResponses(400)
  async update(@Ctx() ctx: RequestContext, @Param('id') id: string, @ValidatedBody() body: unknown): Promise<AddonResponse> {
    return toAddonResponse(await this.addons.update(ctx, id, body, 'update'), ctx.links);
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'deleteAddon', summary: 'Uninstall an add-on' })
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<void> {
    await this.addons.remove(ctx, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({
    operationId: 'listAddonDeliveries',
    summary: 'Delivery log of a webhook add-on (Glossa extension)',
    description:
      'Not in Weblate 4.x/5.x (Weblate 2026.x keeps an add-on activity log). One entry per change sent, newest first: state, attempts and what the last attempt got. Readable by whoever may manage the add-on.',
  })
  @ApiExtension('x-glossa-extension', true)
  @ApiPagingQuery()
  @ApiPaginatedResponse(WebhookDeliveryResponse)
  async deliveries(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<ListEnvelope<WebhookDeliveryResponse>> {
    const { page, count, items } = await this.addons.deliveries(ctx, id, parsePageRequest(ctx.query));
    return listEnvelope(ctx, page, count, items.map((row) => toWebhookDeliveryResponse(row, ctx.links)));
  }
}
