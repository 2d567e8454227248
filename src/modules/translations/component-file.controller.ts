import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { sendFileDownload } from './translation-file.controller';
import { TranslationFileService } from './translation-file.service';

/**
 * All translation files of a component as one ZIP (weblate-api.md §5.7 `.../file/`). wlc's `download P/C`
 * derives this URL from `repository_url` (wlc-client.md §6.3), so it must exist for that command.
 */
@ApiTags('components')
@Controller('api/components/:project/:component/file')
export class ComponentFileController {
  constructor(private readonly files: TranslationFileService) {}

  @Get()
  @ApiOperation({ operationId: 'downloadComponentFile', summary: 'Download all translation files of a component as a ZIP archive' })
  @ApiProduces('application/zip')
  @ApiQuery({ name: 'format', required: false, description: '`zip` (the default); exporters are not supported' })
  @ApiOkResponse({ description: 'ZIP of the translation files, stored under their repository paths', schema: { type: 'string', format: 'binary' } })
  async download(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Headers('if-modified-since') ifModifiedSince: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    sendFileDownload(res, await this.files.archive(project, component, ctx.query), ifModifiedSince);
  }
}
