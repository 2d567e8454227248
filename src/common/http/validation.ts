import { ArgumentMetadata, Body, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiValidationError, FieldErrors } from './api-errors';

/** DRF's CharField message for NUL (ProhibitNullCharactersValidator), which PostgreSQL cannot store in text. */
export const NULL_CHARACTERS_MESSAGE = 'Null characters are not allowed.';

/** Whether a parsed value holds a NUL in a string or a key (bodies are at most 64 levels deep, body-parsing.ts). */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([key, item]) => key.includes('\0') || holdsNul(item));
  return false;
}

/** `{"field": ["Null characters are not allowed."]}` for the first top-level field holding a NUL, or null. */
export function nulFieldErrors(value: unknown): FieldErrors | null {
  if (value === null || typeof value !== 'object') return typeof value === 'string' && value.includes('\0') ? { non_field_errors: [NULL_CHARACTERS_MESSAGE] } : null;
  if (Array.isArray(value)) return holdsNul(value) ? { non_field_errors: [NULL_CHARACTERS_MESSAGE] } : null;
  const field = Object.keys(value).find((key) => key.includes('\0') || holdsNul((value as Record<string, unknown>)[key]));
  return field === undefined ? null : { [field]: [NULL_CHARACTERS_MESSAGE] };
}

/**
 * The pipe of every request body (ValidatedBody): DTO validation, and for every body (typed or not) DRF's refusal of NUL characters, which
 * PostgreSQL cannot store in text (a 500 before, issue 10 item 10). Pipes run after the guards, so an
 * anonymous write still answers 401 first.
 */
class ApiValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') {
      const errors = nulFieldErrors(value);
      if (errors !== null) throw new ApiValidationError(errors);
    }
    return super.transform(value, metadata);
  }
}

/** class-validator messages as DRF field errors: `{"field": ["message"]}`, nested objects by key (§4.3). */
export function toFieldErrors(errors: ValidationError[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const error of errors) {
    if (error.children && error.children.length > 0) {
      fields[error.property] = toFieldErrors(error.children) as Record<string, string[]>;
      continue;
    }
    const messages = Object.values(error.constraints ?? {});
    fields[error.property] = messages.length > 0 ? messages : ['Invalid value.'];
  }
  return fields;
}

/**
 * Request bodies are validated against their DTOs. Fields a DTO does not declare are dropped, not refused:
 * a DRF serializer reads only its declared fields and ignores the rest, read-only ones included (`id`, `url`,
 * ... of a GET body sent back with PUT), so Weblate answers such a write as if they were absent (issue 12).
 */
export function createValidationPipe(): ValidationPipe {
  return new ApiValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    exceptionFactory: (errors) => new ApiValidationError(toFieldErrors(errors)),
  });
}

/** The one pipe every request body goes through (stateless, so one instance serves every route). */
const BODY_PIPE = createValidationPipe();

/**
 * A handler's request body, through the API's validation pipe: DTO validation and DRF's refusal of NUL. The pipe
 * is bound to bodies, not to the app: a global pipe ran every parameter of every request (path parameters, the
 * request context) through Nest's chain of asynchronous pipe calls, although only bodies are validated (path
 * and query parameters are strings, which the pipe passes through). That chain was about a tenth of Node's CPU
 * of a read (issue 15, docs/performance.md "Request pipeline, session 12").
 */
export const ValidatedBody = (): ParameterDecorator => Body(BODY_PIPE);

/**
 * Validates a request body against its DTO class as the body pipe would, but when the service decides:
 * DRF checks the object's existence (404) and the caller's permission (403) before it validates the body
 * (400), so handlers whose permission depends on the object take the body as `unknown` and call this
 * after those checks (weblate-api.md §2.3).
 */
export async function validateBody<T extends object>(dtoClass: new () => T, body: unknown): Promise<T> {
  return (await BODY_PIPE.transform(body ?? {}, { type: 'body', metatype: dtoClass })) as T;
}
