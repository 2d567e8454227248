import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { TranslationFileDownload, TranslationFileService } from './translation-file.service';

/**
 * The translation file (weblate-api.md §5.8, §10.9; `wlc download P/C/L` fetches `file_url` verbatim,
 * wlc-client.md §5). POST/PUT uploads on the same route are TranslationUploadController's, so Allow is
 * "GET, POST, PUT, HEAD, OPTIONS" as in Weblate.
 */
@ApiTags('translations')
@Controller('api/translations/:project/:component/:language/file')
export class TranslationFileController {
  constructor(private readonly files: TranslationFileService) {}

  @Get()
  @ApiOperation({ operationId: 'downloadTranslationFile', summary: 'Download the translation file' })
  @ApiProduces('application/json', 'application/octet-stream')
  @ApiQuery({ name: 'format', required: false, description: 'Only `api` (no conversion) is supported' })
  @ApiOkResponse({ description: 'The translation file', schema: { type: 'string', format: 'binary' } })
  async download(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
    @Headers('if-modified-since') ifModifiedSince: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    sendFileDownload(res, await this.files.download(project, component, language, ctx.query), ifModifiedSince);
  }
}

/** Writes a download with Weblate's headers; `If-Modified-Since` at or after Last-Modified gives 304. */
export function sendFileDownload(res: Response, file: TranslationFileDownload, ifModifiedSince: string | undefined): void {
  if (file.lastModified !== null) {
    res.setHeader('Last-Modified', file.lastModified.toUTCString());
    const since = ifModifiedSince ? Date.parse(ifModifiedSince) : NaN;
    if (!Number.isNaN(since) && Math.floor(file.lastModified.getTime() / 1000) * 1000 <= since) {
      res.status(304).end();
      return;
    }
  }
  res.status(200);
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Disposition', `attachment; filename=${file.downloadName}`);
  res.setHeader('Content-Length', String(file.content.length));
  res.end(file.content);
}

