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
