import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { isStatementTimeout } from '../../database/statement-timeout';
import { ApiError, ApiValidationError, defaultDetail } from './api-errors';
import { NotModified } from './preconditions';
import { KeptAnswerHit } from './response-memo';
import { sendJson, sendNotModified, sendRead } from './send-json';

/** The body of a request whose statement hit STATEMENT_TIMEOUT_MS. */
export const STATEMENT_TIMEOUT_DETAIL = 'The request took too long.';

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

/**
 * Turns every exception into a DRF-style body (`{"detail": ...}` or field errors, weblate-api.md §4.3).
 * Headers set earlier by the HTTP contract middleware (Allow, Vary) stay on the response.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (exception instanceof KeptAnswerHit) {
      // The auth guard found the answer kept for this request current (response-memo.ts): it is the response.
      if (!response.headersSent) sendRead(response, exception.answer);
      return;
    }
    if (exception instanceof NotModified) {
      if (!response.headersSent) sendNotModified(response, exception.etag);
      return;
    }
    const { status, body, headers } = this.describe(exception);
    if (response.headersSent) return;
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    sendJson(response, status, body);
  }

  private describe(exception: unknown): { status: number; body: unknown; headers: Record<string, string> } {
    if (exception instanceof ApiValidationError) return { status: 400, body: exception.fields, headers: {} };
    if (exception instanceof ApiError) return { status: exception.getStatus(), body: { detail: exception.detail }, headers: exception.headers };
    const parseFailure = exception instanceof HttpException ? (exception.cause as BodyParserError | undefined) : undefined;
    if (parseFailure?.type === 'entity.parse.failed') {
      return { status: 400, body: { detail: `JSON parse error - ${parseFailure.message ?? 'invalid JSON'}` }, headers: {} };
    }
    if (exception instanceof HttpException && typeof parseFailure?.type === 'string') {
      // Other body-parser refusals (too large, unsupported charset, aborted): the status with DRF-style words,
      // not the parser's lower-case message.
      const status = exception.getStatus();
      return { status, body: { detail: defaultDetail(status) }, headers: {} };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return { status, body: { detail: this.nestDetail(exception, status) }, headers: {} };
    }
    const parserError = exception as BodyParserError;
    if (parserError?.type === 'entity.parse.failed') {
      return { status: 400, body: { detail: `JSON parse error - ${parserError.message ?? 'invalid JSON'}` }, headers: {} };
    }
    if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
      return { status: parserError.status, body: { detail: defaultDetail(parserError.status) }, headers: {} };
    }
    if (isStatementTimeout(exception)) {
      // STATEMENT_TIMEOUT_MS cancelled a statement (issue 10 item 5): the server gave up on this request, which
      // is 503 whatever the route; the connection stays usable. Nothing of the statement reaches the caller.
      this.logger.warn('A statement was cancelled by the statement timeout (STATEMENT_TIMEOUT_MS)');
      return { status: 503, body: { detail: STATEMENT_TIMEOUT_DETAIL }, headers: {} };
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return { status: 500, body: { detail: defaultDetail(500) }, headers: {} };
  }

  /** Nest's own exceptions (e.g. a body parser or a pipe) carry `message`; keep it when it is a sentence. */
  private nestDetail(exception: HttpException, status: number): string {
    const response = exception.getResponse();
    if (typeof response === 'string') return response;
    const message = (response as { message?: unknown }).message;
    return typeof message === 'string' && status < 500 ? message : defaultDetail(status);
  }
}
