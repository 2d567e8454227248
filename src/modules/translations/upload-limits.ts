import { CallHandler, ExecutionContext, HttpException, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { MulterModuleOptions } from '@nestjs/platform-express';
import { catchError, type Observable, throwError } from 'rxjs';
import { ApiError } from '../../common/http/api-errors';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

// Issue 10, item 2: the multipart body of an upload is bounded before it reaches memory. multer (through
// Nest's FileInterceptor) stops reading at each limit; the request then fails with DRF's body and the
// process keeps only what the limits allow (one file of MAX_FILE_BYTES, a few short fields).

/** multer limits for the upload routes (MulterModule options, merged into FileInterceptor's). */
export function uploadMulterOptions(config: AppConfig): MulterModuleOptions {
  return {
    limits: {
      files: 1,
      // One byte over the limit is enough to know the file is too big; multer stops there.
      fileSize: config.fileLimits.maxFileBytes,
      fields: config.uploadMaxFields,
      fieldSize: config.uploadMaxFieldBytes,
      fieldNameSize: 100,
      parts: config.uploadMaxFields + 1,
    },
  };
}

interface MulterFailure {
  code?: string;
  field?: string;
}

/** Turns multer's limit errors (Nest's exceptions carrying multer's error as `cause`) into clear DRF answers. */
@Injectable()
export class UploadLimitsInterceptor implements NestInterceptor {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(catchError((error: unknown) => throwError(() => this.describe(error))));
  }

  private describe(error: unknown): unknown {
    if (!(error instanceof HttpException)) return error;
    const cause = (error.cause ?? {}) as MulterFailure;
    switch (cause.code) {
      case 'LIMIT_FILE_SIZE':
        // Weblate's text for TRANSLATION_UPLOAD_MAX_SIZE; 413 since the body is refused unread (issue 10).
        return new ApiError(413, 'Uploaded translation file is too big.');
      case 'LIMIT_FIELD_COUNT':
      case 'LIMIT_PART_COUNT':
        return new ApiError(400, `Too many form fields: an upload takes at most ${this.config.uploadMaxFields} (UPLOAD_MAX_FIELDS).`);
      case 'LIMIT_FIELD_VALUE':
        return new ApiError(400, `Form field "${printable(cause.field)}" is too long: at most ${this.config.uploadMaxFieldBytes} bytes (UPLOAD_MAX_FIELD_BYTES).`);
      case 'LIMIT_FIELD_KEY':
        return new ApiError(400, 'Form field name is too long.');
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_UNEXPECTED_FILE':
        return new ApiError(400, 'Only one file can be uploaded, as the field "file".');
      default:
        return error;
    }
  }
}

function printable(field: string | undefined): string {
  const name = (field ?? '').replace(/[^\w.-]/g, '?');
  return name.length > 40 ? `${name.slice(0, 40)}…` : name;
}
