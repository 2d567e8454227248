import { ApiProperty } from '@nestjs/swagger';
import { OneDecimal } from '../../common/serialization/json-writer';
import { formatTimestamp } from '../../common/serialization/timestamp';
import { translationPercent } from '../../common/stats/percent';

// The statistics object of the `/statistics/` endpoints (weblate-api.md §6.9, the 4.x key set and order) and
// the items of `/api/projects/<p>/languages/`. Built from counter sums over the translations' stored
// statistics columns (§11.1), never from units. Percentages follow §11.2: the translated trio counts an
// empty total as complete (100.0), every other ratio as 0.0.

/** Sums of the translation statistics columns over the translations in scope. */
export interface StatisticsCounters {
  total: number;
  totalWords: number;
  totalChars: number;
  translated: number;
  translatedWords: number;
  translatedChars: number;
  fuzzy: number;
  approved: number;
  readonly: number;
  failing: number;
  suggestions: number;
  comments: number;
  /** Latest content change in scope (PostgreSQL text or Date), or null. */
  lastChange: string | Date | null;
  /** Content changes in the six hours up to `lastChange` (§6.9); 0 without changes. */
  recentChanges: number;
}

const percent = { type: 'number', format: 'float', description: 'One decimal, truncated (weblate-api.md §11.2)' } as const;

export class StatisticsResponse {
  @ApiProperty() total: number;
  @ApiProperty() total_words: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_change: string | null;
  @ApiProperty({ description: 'Content changes in the six hours before the last one' }) recent_changes: number;
  @ApiProperty() translated: number;
  @ApiProperty() translated_words: number;
  @ApiProperty(percent) translated_percent: OneDecimal;
  @ApiProperty(percent) translated_words_percent: OneDecimal;
  @ApiProperty() translated_chars: number;
  @ApiProperty(percent) translated_chars_percent: OneDecimal;
  @ApiProperty() total_chars: number;
  @ApiProperty() fuzzy: number;
  @ApiProperty(percent) fuzzy_percent: OneDecimal;
  @ApiProperty({ description: 'Strings with failing checks' }) failing: number;
  @ApiProperty(percent) failing_percent: OneDecimal;
  @ApiProperty() approved: number;
  @ApiProperty(percent) approved_percent: OneDecimal;
  @ApiProperty() readonly: number;
  @ApiProperty(percent) readonly_percent: OneDecimal;
  @ApiProperty({ description: 'Strings with suggestions' }) suggestions: number;
  @ApiProperty({ description: 'Strings with unresolved comments' }) comments: number;
}

/** Project and language statistics: the object plus `name` and the web `url` of the project or language. */
export class NamedStatisticsResponse extends StatisticsResponse {
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Web URL' }) url: string;
}

/**
 * Translation statistics (also the items of a component's statistics list): the object plus the language's
 * `code` and `name`, the translation's web `url` and `translate_url` (§6.9), and `last_author`, which wlc's
 * TranslationStatistics requires (wlc-client.md §3.1; without it `wlc stats` re-fetches the web URL and fails).
 */
export class TranslationStatisticsResponse extends StatisticsResponse {
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Web URL of the translation' }) url: string;
  @ApiProperty() translate_url: string;
  @ApiProperty({ type: String, nullable: true, description: 'Full name (or username) of the last author' }) last_author: string | null;
}

/** An item of `/api/projects/<p>/languages/` (weblate-api.md §6.9, 4.x shape; no `url`, wlc-client.md §3.1). */
export class ProjectLanguageStatisticsResponse {
  @ApiProperty({ description: 'Language name' }) language: string;
  @ApiProperty() code: string;
  @ApiProperty() total: number;
  @ApiProperty() translated: number;
  @ApiProperty(percent) translated_percent: OneDecimal;
  @ApiProperty() total_words: number;
  @ApiProperty() translated_words: number;
  @ApiProperty(percent) translated_words_percent: OneDecimal;
  @ApiProperty() total_chars: number;
  @ApiProperty() translated_chars: number;
  @ApiProperty(percent) translated_chars_percent: OneDecimal;
}

const ratio = (count: number, total: number, zeroComplete = false): OneDecimal =>
  new OneDecimal(translationPercent(count, total, zeroComplete));

/** The statistics object in Weblate 4.x key order. */
export function toStatistics(c: StatisticsCounters): StatisticsResponse {
  return {
    total: c.total,
    total_words: c.totalWords,
    last_change: formatTimestamp(c.lastChange),
    recent_changes: c.lastChange === null ? 0 : c.recentChanges,
    translated: c.translated,
    translated_words: c.translatedWords,
    translated_percent: ratio(c.translated, c.total, true),
    translated_words_percent: ratio(c.translatedWords, c.totalWords, true),
    translated_chars: c.translatedChars,
    translated_chars_percent: ratio(c.translatedChars, c.totalChars, true),
    total_chars: c.totalChars,
    fuzzy: c.fuzzy,
    fuzzy_percent: ratio(c.fuzzy, c.total),
    failing: c.failing,
    failing_percent: ratio(c.failing, c.total),
    approved: c.approved,
    approved_percent: ratio(c.approved, c.total),
    readonly: c.readonly,
    readonly_percent: ratio(c.readonly, c.total),
    suggestions: c.suggestions,
    comments: c.comments,
  };
}

export function toNamedStatistics(c: StatisticsCounters, name: string, webUrl: string): NamedStatisticsResponse {
  return { ...toStatistics(c), name, url: webUrl };
}

export interface TranslationIdentity {
  code: string;
  name: string;
  webUrl: string;
  translateUrl: string;
  lastAuthor: string | null;
}

export function toTranslationStatistics(c: StatisticsCounters, t: TranslationIdentity): TranslationStatisticsResponse {
  return { ...toStatistics(c), code: t.code, name: t.name, url: t.webUrl, translate_url: t.translateUrl, last_author: t.lastAuthor };
}

export function toProjectLanguageStatistics(c: StatisticsCounters, language: { code: string; name: string }): ProjectLanguageStatisticsResponse {
  return {
    language: language.name,
    code: language.code,
    total: c.total,
    translated: c.translated,
    translated_percent: ratio(c.translated, c.total, true),
    total_words: c.totalWords,
    translated_words: c.translatedWords,
    translated_words_percent: ratio(c.translatedWords, c.totalWords, true),
    total_chars: c.totalChars,
    translated_chars: c.translatedChars,
    translated_chars_percent: ratio(c.translatedChars, c.totalChars, true),
  };
}
