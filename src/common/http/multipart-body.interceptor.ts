import { CallHandler, ExecutionContext, HttpException, Injectable, NestInterceptor, RequestMethod, type Type } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { AnyFilesInterceptor } from '@nestjs/platform-express';
import type { Request } from 'express';
import { from, type Observable, switchMap } from 'rxjs';
import type { AppConfig } from '../../config/app-config';
import { ApiError } from './api-errors';
import { formBodyOf, queryDictOf } from './request-body';

interface MulterFailure {
  code?: string;
}

/**
 * multer storage that reads file parts to their end without keeping them: no serializer of these routes
 * reads a file, so buffering up to `files` × MAX_REQUEST_BODY_BYTES in memory per request (multer's default
 * memory storage) would only give a hostile caller memory to fill. busboy still enforces `fileSize`.
 */
const DISCARD_FILES = {
  _handleFile(_request: unknown, file: { stream: NodeJS.ReadableStream }, done: (error: Error | null, info?: object) => void): void {
    file.stream.on('error', done);
    file.stream.on('end', () => done(null, {}));
    file.stream.resume();
  },
  _removeFile(_request: unknown, _file: unknown, done: (error: Error | null) => void): void {
    done(null);
  },
};

/** Whether a handler takes an uploaded file (@UploadedFile/@UploadedFiles): its route parses its own multipart body. */
function takesFiles(controller: Type<unknown>, methodName: string): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, methodName) ?? {}) as Record<string, unknown>;
  return Object.keys(args).some((key) => {
    const type = Number(key.split(':')[0]);
    return type === RouteParamtypes.FILE || type === RouteParamtypes.FILES;
  });
}

/** Methods whose requests carry a body DRF's parsers read (GET, HEAD and OPTIONS bodies are never read). */
const BODY_METHODS = new Set<RequestMethod>([RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE, RequestMethod.ALL]);

/**
 * Binds the interceptor to every route that reads a request body and takes no file, as `@UseInterceptors`
 * on each of those handlers would (before their own interceptors), instead of app-wide. A route with no
 * interceptor at all is run by Nest without rxjs (no Observable, ReplaySubject or subscription per
 * request): every read now is, which was 5–8 % of an anonymous `/api/` request's profile
 * (docs/performance.md, "Request pipeline"). Must run before `app.init()`, which builds the route handlers.
 * Returns how many handlers it bound.
 */
export function bindToBodyRoutes(interceptor: MultipartBodyInterceptor, discovery: DiscoveryService, scanner: MetadataScanner): number {
  let bound = 0;
  for (const wrapper of discovery.getControllers()) {
    const instance = wrapper.instance as object | undefined;
    const controller = wrapper.metatype as Type<unknown> | undefined;
    if (!instance || !controller) continue;
    const prototype = Object.getPrototypeOf(instance) as object;
    for (const methodName of scanner.getAllMethodNames(prototype)) {
      const handler = (prototype as Record<string, unknown>)[methodName] as object;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined || !BODY_METHODS.has(method) || takesFiles(controller, methodName)) continue;
      // The metadata lives on the controller class, which every app built in this process shares (tests
      // build one per file, several per process): an interceptor an earlier app bound is replaced, not
      // stacked, or a later app's multipart writes ran two parsers and the second found the body consumed
      // (400). An app that is already running keeps its own: Nest read the list when it registered its routes.
      const own = ((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? []) as unknown[]).filter((bound) => !(bound instanceof MultipartBodyInterceptor));
      Reflect.defineMetadata(INTERCEPTORS_METADATA, [interceptor, ...own], handler);
      bound++;
    }
  }
  return bound;
}

/**
 * The multipart half of the body layer (request-body.ts): DRF's MultiPartParser runs on every write, so a
 * multipart user create, lock, repository operation or unit edit is read like its JSON or urlencoded twin
 * (issue 12 item 1). multer (the parser @nestjs/platform-express ships) reads the parts with the upload
 * limits of the configuration: UPLOAD_MAX_FIELDS fields of at most UPLOAD_MAX_FIELD_BYTES, and file parts
 * of at most MAX_REQUEST_BODY_BYTES, which are read and discarded, never buffered. Routes that take an uploaded file keep their own
 * parser and limits (src/modules/translations/upload-limits.ts).
 *
 * An interceptor rather than a middleware, so it runs after the guard: an anonymous or refused multipart
 * write is answered before its body is read; the validation pipe runs after it. Bound to the write routes
 * only (bindToBodyRoutes), not app-wide.
 */
@Injectable()
export class MultipartBodyInterceptor implements NestInterceptor {
  private readonly multer: NestInterceptor;

  constructor(private readonly config: Pick<AppConfig, 'maxRequestBodyBytes' | 'uploadMaxFields' | 'uploadMaxFieldBytes'>) {
    const Multer = AnyFilesInterceptor({
      storage: DISCARD_FILES,
      limits: {
        fields: config.uploadMaxFields,
        fieldSize: config.uploadMaxFieldBytes,
        fieldNameSize: 100,
        files: 10,
        fileSize: config.maxRequestBodyBytes,
        parts: config.uploadMaxFields + 10,
      },
    }) as Type<NestInterceptor>;
    this.multer = new Multer();
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    if (!request.is('multipart/form-data')) return next.handle();
    const parsed: CallHandler = {
      handle: () => {
        request.body = formBodyOf(queryDictOf((request.body ?? {}) as Record<string, unknown>));
        delete (request as { files?: unknown }).files;
        return next.handle();
      },
    };
    return from(this.parse(context, parsed)).pipe(switchMap((observable) => observable));
  }

  private async parse(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    try {
      return await this.multer.intercept(context, next);
    } catch (error) {
      throw this.describe(error);
    }
  }

  /** multer's limit errors in the words of the upload routes. */
  private describe(error: unknown): unknown {
    if (!(error instanceof HttpException)) return error;
    switch ((error.cause as MulterFailure | undefined)?.code) {
      case 'LIMIT_FILE_SIZE':
        return new ApiError(413, 'Request entity too large.');
      case 'LIMIT_FIELD_COUNT':
      case 'LIMIT_PART_COUNT':
      case 'LIMIT_FILE_COUNT':
        return new ApiError(400, `Too many form fields: at most ${this.config.uploadMaxFields} (UPLOAD_MAX_FIELDS).`);
      case 'LIMIT_FIELD_VALUE':
        return new ApiError(400, `A form field is too long: at most ${this.config.uploadMaxFieldBytes} bytes (UPLOAD_MAX_FIELD_BYTES).`);
      case 'LIMIT_FIELD_KEY':
        return new ApiError(400, 'Form field name is too long.');
      default:
        return new ApiError(error.getStatus(), `Multipart form parse error - ${error.message}`);
    }
  }
}
