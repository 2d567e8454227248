import { ApiProperty } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';
import { pathOf } from '../../common/links/link-builder';
import type { Language } from './language.entity';

/** A language's default plural (source 0, weblate-api.md §6.1); its id is the language's id. */
export class PluralResponse {
  @ApiProperty() id: number;
  @ApiProperty({ description: '0 = default plural (weblate-api.md §8.6)' }) source: number;
  @ApiProperty({ description: 'Number of plural forms' }) number: number;
  @ApiProperty({ description: 'gettext plural expression over n' }) formula: string;
  @ApiProperty({ description: "Weblate's plural type code" }) type: number;
}

/** A language on the wire, fields in the spec's order (api-spec.md "Language"). */
export class LanguageResponse {
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: PluralResponse }) plural: PluralResponse;
  @ApiProperty({ type: [String] }) aliases: string[];
  @ApiProperty({ enum: ['ltr', 'rtl', ''] }) direction: string;
  @ApiProperty({ type: 'integer', format: 'int64' }) population: bigint;
  @ApiProperty() web_url: string;
  @ApiProperty() url: string;
  @ApiProperty() statistics_url: string;
}

export const languageApiPath = (code: string): string => pathOf('api', 'languages', code);

export function toLanguageResponse(language: Language, links: LinkBuilder): LanguageResponse {
  const base = languageApiPath(language.code);
  return {
    code: language.code,
    name: language.name,
    plural: {
      id: language.id,
      source: 0,
      number: language.pluralNumber,
      formula: language.pluralFormula,
      type: language.pluralType,
    },
    aliases: language.aliases,
    direction: language.direction,
    population: BigInt(language.population),
    web_url: links.web(pathOf('languages', language.code)),
    url: links.api(base),
    statistics_url: links.api(`${base}statistics/`),
  };
}
