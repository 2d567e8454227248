import { Controller, HttpCode, Param, Post, Put, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CheckOrder } from '../../common/auth/check-order';
import { Ctx, RequestContext } from '../../common/http/request-context';
import { TranslationUploadService, type UploadedFile as UploadedFileData, type UploadResult } from './translation-upload.service';
import { UploadLimitsInterceptor } from './upload-limits';
import { ValidatedBody } from '../../common/http/validation';

/** Multipart body of an upload (weblate-api.md §10.8; wlc-client.md §6.4). */
export class TranslationUploadRequest {
  @ApiProperty({ type: 'string', format: 'binary' }) file: unknown;
  @ApiPropertyOptional({ enum: ['translate', 'approve', 'suggest', 'fuzzy', 'replace', 'source', 'add'], default: 'translate' }) method?: string;
  @ApiPropertyOptional({ enum: ['', 'ignore', 'replace-translated', 'replace-approved'], default: '' }) conflicts?: string;
  @ApiPropertyOptional({ enum: ['', 'process', 'approve'], default: '' }) fuzzy?: string;
  @ApiPropertyOptional({ maxLength: 200 }) author_name?: string;
  @ApiPropertyOptional({ maxLength: 200 }) author_email?: string;
}

export class TranslationUploadResponse implements UploadResult {
  @ApiProperty({ description: 'Strings of the file not present in the translation' }) not_found: number;
  @ApiProperty({ description: 'Strings left unchanged (conflicts, identical, read-only, empty)' }) skipped: number;
  @ApiProperty({ description: 'Strings applied' }) accepted: number;
  @ApiProperty({ description: 'Strings in the uploaded file' }) total: number;
  @ApiProperty({ description: 'accepted > 0' }) result: boolean;
  @ApiProperty({ description: 'Same as total (legacy)' }) count: number;
}

/** Issue 10, item 2: a file past MAX_FILE_BYTES, or one needing more memory to parse than a parse worker has. */
const TOO_BIG = ApiResponse({
  status: 413,
  description: 'The file is larger than MAX_FILE_BYTES, or parsing it needs more memory than PARSE_WORKER_MEMORY_MB',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiErrorDetail' }, example: { detail: 'Uploaded translation file is too big.' } } },
});

/**
 * upload.perform (plain 403, weblate-api.md §10.8) is checked by the guard, before multer reads the multipart
 * body: a caller without the right gets 403, not a 400/413 about a body nobody will look at, and never makes
 * the server receive and buffer a file (DRF's order, check-order.ts; Weblate also checks it before parsing).
 * The rights of each method and conflict mode depend on the body and are checked by the service.
 */
const UPLOAD_ORDER = CheckOrder({ object: 'scope', permission: 'upload.perform' });

/** Uploads to the translation file route, beside its GET (TranslationFileController); Allow covers both. */
@ApiTags('translations')
@Controller('api/translations/:project/:component/:language/file')
export class TranslationUploadController {
  constructor(private readonly uploads: TranslationUploadService) {}

  @Post()
  @UPLOAD_ORDER
  @HttpCode(200)
  @ApiOperation({ operationId: 'uploadTranslationFile', summary: 'Upload a translation file (multipart)' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: TranslationUploadRequest })
  @ApiOkResponse({ type: TranslationUploadResponse })
  @TOO_BIG
  // Limits from the configuration (MulterModule in TranslationsModule, src/modules/translations/upload-limits.ts).
  @UseInterceptors(UploadLimitsInterceptor, FileInterceptor('file'))
  upload(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
    @UploadedFile() file: UploadedFileData | undefined,
    @ValidatedBody() body: Record<string, unknown> | undefined,
  ): Promise<UploadResult> {
    return this.uploads.upload(ctx, project, component, language, file, body ?? {});
  }

  @Put()
  @UPLOAD_ORDER
  @HttpCode(200)
  @ApiOperation({ operationId: 'replaceTranslationFile', summary: 'Upload a translation file (multipart), same as POST' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: TranslationUploadRequest })
  @ApiOkResponse({ type: TranslationUploadResponse })
  @TOO_BIG
  // Limits from the configuration (MulterModule in TranslationsModule, src/modules/translations/upload-limits.ts).
  @UseInterceptors(UploadLimitsInterceptor, FileInterceptor('file'))
  replace(
    @Ctx() ctx: RequestContext,
    @Param('project') project: string,
    @Param('component') component: string,
    @Param('language') language: string,
    @UploadedFile() file: UploadedFileData | undefined,
    @ValidatedBody() body: Record<string, unknown> | undefined,
  ): Promise<UploadResult> {
    return this.uploads.upload(ctx, project, component, language, file, body ?? {});
  }
}
