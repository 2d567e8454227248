import { HttpException, HttpStatus } from '@nestjs/common';

// Error bodies as Django REST framework 3.14 sends them in the spec era (weblate-api.md §4.1, §4.3).

export type FieldErrors = Record<string, string[] | Record<string, string[]>>;

/** 400 with `{"field": ["message", ...]}`, the shape of a serializer validation error. */
export class ApiValidationError extends HttpException {
  constructor(readonly fields: FieldErrors) {
    super(fields, HttpStatus.BAD_REQUEST);
  }
}

/** Any error whose body is `{"detail": "..."}`. */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super({ detail }, status);
    // HttpException would otherwise derive the message from the class name; logs and tests read it.
    this.message = detail;
  }
}

export const notFound = (detail = 'Not found.'): ApiError => new ApiError(HttpStatus.NOT_FOUND, detail);

export const permissionDenied = (detail = 'You do not have permission to perform this action.'): ApiError =>
  new ApiError(HttpStatus.FORBIDDEN, detail);

/** DRF answers 401 with the scheme of its first authentication class (§2.2). */
export const notAuthenticated = (detail = 'Authentication credentials were not provided.'): ApiError =>
  new ApiError(HttpStatus.UNAUTHORIZED, detail, { 'WWW-Authenticate': 'Token' });

export const badRequest = (detail: string): ApiError => new ApiError(HttpStatus.BAD_REQUEST, detail);

export const methodNotAllowed = (method: string): ApiError =>
  new ApiError(HttpStatus.METHOD_NOT_ALLOWED, `Method "${method.toUpperCase()}" not allowed.`);

/** DRF's default detail for a status, used when an exception carries no message of ours. */
export function defaultDetail(status: number): string {
  switch (status) {
    case 400:
      return 'Malformed request.';
    case 401:
      return 'Authentication credentials were not provided.';
    case 403:
      return 'You do not have permission to perform this action.';
    case 404:
      return 'Not found.';
    case 406:
      return 'Could not satisfy the request Accept header.';
    case 413:
      return 'Request entity too large.';
    case 415:
      return 'Unsupported media type in request.';
    case 429:
      return 'Request was throttled.';
    default:
      return status >= 500 ? 'A server error occurred.' : 'Request failed.';
  }
}
