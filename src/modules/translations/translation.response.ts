import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';
import { pathOf } from '../../common/links/link-builder';
import { OneDecimal } from '../../common/serialization/json-writer';
import { formatTimestamp } from '../../common/serialization/timestamp';
import { translationPercent } from '../../common/stats/percent';
import { ComponentResponse, toComponentResponse } from '../components/component.response';
import { LanguageResponse, toLanguageResponse } from '../languages/language.response';
import type { Translation } from './translation.entity';

/**
 * A translation on the wire, fields in the spec's order (api-spec.md "Translation", weblate-api.md §6.4).
 * `component` is left out of a component's translation list and of the add-language answer (§5.7, §10.10).
 */
export class TranslationResponse {
  @ApiProperty({ type: LanguageResponse }) language: LanguageResponse;
  @ApiPropertyOptional({ type: ComponentResponse, description: 'Absent in /api/components/<p>/<c>/translations/' })
  component?: ComponentResponse;
  @ApiProperty({ description: 'Language code as used in the file name' }) language_code: string;
  @ApiProperty() id: number;
  @ApiProperty({ description: 'File path in the repository' }) filename: string;
  @ApiProperty({ description: 'Git blob hashes of the translation file and the template, comma-joined' }) revision: string;
  @ApiProperty() web_url: string;
  @ApiProperty() share_url: string;
  @ApiProperty() translate_url: string;
  @ApiProperty() url: string;
  @ApiProperty() is_template: boolean;
  @ApiProperty() is_source: boolean;
  @ApiProperty() total: number;
  @ApiProperty() total_words: number;
  @ApiProperty() translated: number;
  @ApiProperty() translated_words: number;
  @ApiProperty({ type: 'number', format: 'float', description: 'One decimal, truncated (weblate-api.md §11.2)' }) translated_percent: OneDecimal;
  @ApiProperty() fuzzy: number;
  @ApiProperty() fuzzy_words: number;
  @ApiProperty({ type: 'number', format: 'float' }) fuzzy_percent: OneDecimal;
  @ApiProperty() failing_checks: number;
  @ApiProperty() failing_checks_words: number;
  @ApiProperty({ type: 'number', format: 'float' }) failing_checks_percent: OneDecimal;
  @ApiProperty({ description: 'Number of strings with suggestions' }) have_suggestion: number;
  @ApiProperty({ description: 'Number of strings with unresolved comments' }) have_comment: number;
  @ApiProperty({ type: String, nullable: true }) last_change: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Full name (or username) of the last author' }) last_author: string | null;
  @ApiProperty() repository_url: string;
  @ApiProperty() file_url: string;
  @ApiProperty() statistics_url: string;
  @ApiProperty() changes_list_url: string;
  @ApiProperty() units_list_url: string;
}

export const translationApiPath = (projectSlug: string, componentSlug: string, languageCode: string): string =>
  pathOf('api', 'translations', projectSlug, componentSlug, languageCode);

export interface TranslationResponseOptions {
  withComponent?: boolean;
  /** last_change as PostgreSQL text (keeps microseconds; the entity's Date would drop them). */
  lastChange?: string | null;
}

/**
 * `translation` must have language, lastAuthor and component with project and sourceLanguage loaded (one
 * joined query). Statistics are the stored columns, never recomputed here (architecture.md).
 */
export function toTranslationResponse(translation: Translation, links: LinkBuilder, options: TranslationResponseOptions = {}): TranslationResponse {
  const component = translation.component;
  const project = component.project;
  const code = translation.language.code;
  const base = translationApiPath(project.slug, component.slug, code);
  const total = translation.total;
  const author = translation.lastAuthor;
  const lastChange = options.lastChange !== undefined ? options.lastChange : translation.lastChange;
  return {
    language: toLanguageResponse(translation.language, links),
    component: options.withComponent === false ? undefined : toComponentResponse(component, links),
    language_code: translation.languageCode,
    id: translation.id,
    filename: translation.filename,
    revision: translation.revision,
    web_url: links.web(pathOf('projects', project.slug, component.slug, code)),
    // 4.x engage page (weblate-api.md §6.4): /engage/<project>/<language>/.
    share_url: links.web(pathOf('engage', project.slug, code)),
    translate_url: links.web(pathOf('translate', project.slug, component.slug, code)),
    url: links.api(base),
    is_template: translation.isTemplate,
    is_source: translation.isSource,
    total,
    total_words: translation.totalWords,
    translated: translation.translated,
    translated_words: translation.translatedWords,
    // "translated" is the completed metric, so an empty translation is 100.0 complete (§11.2).
    translated_percent: new OneDecimal(translationPercent(translation.translated, total, true)),
    fuzzy: translation.fuzzy,
    fuzzy_words: translation.fuzzyWords,
    fuzzy_percent: new OneDecimal(translationPercent(translation.fuzzy, total, false)),
    failing_checks: translation.failingChecks,
    failing_checks_words: translation.failingChecksWords,
    failing_checks_percent: new OneDecimal(translationPercent(translation.failingChecks, total, false)),
    have_suggestion: translation.haveSuggestion,
    have_comment: translation.haveComment,
    last_change: formatTimestamp(lastChange),
    last_author: author ? author.fullName || author.username : null,
    repository_url: links.api(`${base}repository/`),
    file_url: links.api(`${base}file/`),
    statistics_url: links.api(`${base}statistics/`),
    changes_list_url: links.api(`${base}changes/`),
    units_list_url: links.api(`${base}units/`),
  };
}
