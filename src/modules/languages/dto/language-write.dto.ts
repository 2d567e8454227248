import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { pluralFormulaError } from '../plural-formula';
import { DrfField, NestedDrfObject } from '../../../common/http/drf-fields';

/** Language codes as they appear in URLs and file names (`cs`, `pt_BR`, `sr@latin`, `zh_Hant`). */
const LANGUAGE_CODE = /^[A-Za-z0-9][A-Za-z0-9_@.+-]*$/;
const checkCode = (code: string): string | null => (LANGUAGE_CODE.test(code) ? null : 'Enter a valid language code.');
const checkFormula = (formula: string): string | null => pluralFormulaError(formula);

const MAX_PLURALS = 200;

/**
 * The writable part of a plural (weblate-api.md §6.1): `number` and `formula`; `type` is computed from
 * the formula on save. `id`, `source` and `type` are read-only and accepted only so that a GET body can
 * be sent back with PUT, as DRF ignores read-only fields.
 */
export class PluralWriteDto {
  @ApiProperty({ minimum: 1, maximum: MAX_PLURALS, description: 'Number of plural forms' })
  @DrfField({ type: 'integer', required: true, min: 1, max: MAX_PLURALS })
  number: number;

  @ApiProperty({ description: 'gettext plural expression over n, e.g. `n != 1`' })
  @DrfField({ type: 'string', required: true, maxLength: 400, check: checkFormula })
  formula: string;

  @Allow() id?: unknown;
  @Allow() source?: unknown;
  @Allow() type?: unknown;
}

/** A plural on PATCH: any subset. */
export class PluralPatchDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PLURALS })
  @DrfField({ type: 'integer', min: 1, max: MAX_PLURALS })
  number?: number;

  @ApiPropertyOptional()
  @DrfField({ type: 'string', maxLength: 400, check: checkFormula })
  formula?: string;

  @Allow() id?: unknown;
  @Allow() source?: unknown;
  @Allow() type?: unknown;
}

/** Read-only language fields a client may echo back from a GET body (ignored, as DRF ignores them). */
class LanguageReadOnlyFields {
  @Allow() aliases?: unknown;
  @Allow() web_url?: unknown;
  @Allow() url?: unknown;
  @Allow() statistics_url?: unknown;
}

/** `POST /api/languages/` and `PUT /api/languages/<code>/` (weblate-api.md §5.5, §6.1). */
export class CreateLanguageDto extends LanguageReadOnlyFields {
  @ApiProperty({ maxLength: 50, example: 'pt_BR' })
  @DrfField({ type: 'string', required: true, maxLength: 50, check: checkCode })
  code: string;

  @ApiProperty({ maxLength: 100 })
  @DrfField({ type: 'string', required: true, maxLength: 100 })
  name: string;

  @ApiPropertyOptional({ enum: ['', 'ltr', 'rtl'], default: 'ltr' })
  @DrfField({ type: 'choice', choices: ['', 'ltr', 'rtl'] })
  direction?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, default: 0, description: 'Number of speakers' })
  @DrfField({ type: 'integer', min: 0 })
  population?: number;

  @ApiProperty({ type: PluralWriteDto })
  @NestedDrfObject(() => PluralWriteDto, { required: true })
  plural: PluralWriteDto;
}

/** `PATCH /api/languages/<code>/`: any subset of the writable fields. */
export class UpdateLanguageDto extends LanguageReadOnlyFields {
  @ApiPropertyOptional({ maxLength: 50 })
  @DrfField({ type: 'string', maxLength: 50, check: checkCode })
  code?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @DrfField({ type: 'string', maxLength: 100 })
  name?: string;

  @ApiPropertyOptional({ enum: ['', 'ltr', 'rtl'] })
  @DrfField({ type: 'choice', choices: ['', 'ltr', 'rtl'] })
  direction?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  @DrfField({ type: 'integer', min: 0 })
  population?: number;

  @ApiPropertyOptional({ type: PluralPatchDto })
  @NestedDrfObject(() => PluralPatchDto)
  plural?: PluralPatchDto;
}
