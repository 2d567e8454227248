import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiValidationError, FieldErrors } from './api-errors';

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

/** Request bodies are validated against their DTOs; unknown fields are rejected, not silently dropped. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => new ApiValidationError(toFieldErrors(errors)),
  });
}

/**
 * Validates a request body against its DTO class as the global pipe would, but when the service decides:
 * DRF checks the object's existence (404) and the caller's permission (403) before it validates the body
 * (400), so handlers whose permission depends on the object take the body as `unknown` and call this
 * after those checks (weblate-api.md §2.3).
 */
export async function validateBody<T extends object>(dtoClass: new () => T, body: unknown): Promise<T> {
  return (await createValidationPipe().transform(body ?? {}, { type: 'body', metatype: dtoClass })) as T;
}
