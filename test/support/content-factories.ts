import { DataSource } from 'typeorm';
import { calculateHash } from '../../src/common/hashing/weblate-hash';
import { countWords } from '../../src/common/text/word-count';
import { nestedPathFromContext } from '../../src/formats/json/json-paths';
import type { Component } from '../../src/modules/components/component.entity';
import type { Project } from '../../src/modules/projects/project.entity';
import { createComponent, createLanguage, createProject } from './factories';

// Translations, units and changes inserted straight into the database, shaped like what importing a
// json-nested component produces (src/sync): a read-only source translation whose units are the template
// (state 100, target = source), one translation per language with translated (20) and untranslated (0) units,
// positions 1..n, monolingual hashes (weblate-api.md §9), statistics columns filled, and the history of a scan:
// 0 "Resource update" per translation and 59 "String updated in the repository" for the first translated unit.

export interface ContentOptions {
  /** Target languages besides the English source; default cs and de. */
  languages?: string[];
  /** Strings per translation; default 4. */
  units?: number;
  /** Which unit indexes (0-based) are translated in the target languages; default every even index. */
  translated?: (index: number, languageCode: string) => boolean;
  project?: Partial<Project>;
  /** An existing project to add the component to (instead of creating one from `project`). */
  inProject?: Project;
  component?: Partial<Component>;
}

export interface SeededTranslation {
  id: number;
  languageCode: string;
  isSource: boolean;
  filename: string;
  unitIds: string[];
  total: number;
  translated: number;
}

export interface SeededContent {
  project: Project;
  component: Component;
  source: SeededTranslation;
  translations: SeededTranslation[];
  /** Context, source text and hashes of unit i, the same in every translation. */
  strings: Array<{ context: string; source: string; idHash: bigint; contentHash: bigint; numWords: number }>;
}

/** The context and source text of string i: a few nesting levels, varied word counts. */
export function sampleString(index: number): { context: string; source: string } {
  const group = ['app', 'menu.file', 'dialog'][index % 3];
  return { context: `${group}.string${index + 1}`, source: `Sample string number ${index + 1}${index % 2 ? ' with more words' : ''}` };
}

const isEven = (index: number): boolean => index % 2 === 0;

export async function createTranslatedComponent(dataSource: DataSource, options: ContentOptions = {}): Promise<SeededContent> {
  const unitCount = options.units ?? 4;
  const codes = options.languages ?? ['cs', 'de'];
  const translatedAt = options.translated ?? isEven;
  const project = options.inProject ?? (await createProject(dataSource, options.project));
  const english = await createLanguage(dataSource, 'en');
  const component = await createComponent(dataSource, project, { sourceLanguageId: english.id, ...options.component });
  const strings = Array.from({ length: unitCount }, (_, index) => {
    const { context, source } = sampleString(index);
    return {
      context,
      source,
      idHash: calculateHash(context),
      contentHash: calculateHash(source, context),
      numWords: countWords(source, 'en'),
    };
  });
  const source = await insertTranslation(dataSource, component, project, english.id, 'en', component.template, true, strings, () => true, null);
  const translations: SeededTranslation[] = [];
  for (const code of codes) {
    const language = await createLanguage(dataSource, code);
    const filename = component.filemask.replaceAll('*', code);
    translations.push(
      await insertTranslation(dataSource, component, project, language.id, code, filename, false, strings, (i) => translatedAt(i, code), source.unitIds),
    );
  }
  return { project, component, source, translations, strings };
}

async function insertTranslation(
  dataSource: DataSource,
  component: Component,
  project: Project,
  languageId: number,
  languageCode: string,
  filename: string,
  isSource: boolean,
  strings: SeededContent['strings'],
  isTranslated: (index: number) => boolean,
  sourceUnitIds: string[] | null,
): Promise<SeededTranslation> {
  const states = strings.map((_, i) => (isSource ? 100 : isTranslated(i) ? 20 : 0));
  const targets = strings.map((s, i) => (isSource ? s.source : states[i] === 20 ? `[${languageCode}] ${s.source}` : ''));
  const translatedWords = strings.reduce((sum, s, i) => sum + (states[i] >= 20 ? s.numWords : 0), 0);
  const translatedChars = strings.reduce((sum, s, i) => sum + (states[i] >= 20 ? [...s.source].length : 0), 0);
  const totalWords = strings.reduce((sum, s) => sum + s.numWords, 0);
  const totalChars = strings.reduce((sum, s) => sum + [...s.source].length, 0);
  const translated = states.filter((state) => state >= 20).length;
  const readonly = states.filter((state) => state === 100).length;
  const [{ id }]: Array<{ id: number }> = await dataSource.query(
    `INSERT INTO translations (component_id, language_id, language_code, filename, revision, is_source, is_template,
                               total, total_words, total_chars, translated, translated_words, translated_chars,
                               readonly, readonly_words, readonly_chars)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
    [
      component.id,
      languageId,
      languageCode,
      filename,
      `${'a'.repeat(40)},${'b'.repeat(40)}`,
      isSource,
      strings.length,
      totalWords,
      totalChars,
      translated,
      translatedWords,
      translatedChars,
      readonly,
      isSource ? totalWords : 0,
      isSource ? totalChars : 0,
    ],
  );
  const rows: Array<{ id: string }> = await dataSource.query(
    `INSERT INTO units (translation_id, source_unit_id, id_hash, content_hash, context, source, target, state, position,
                        num_words, num_chars, priority, file_location)
     SELECT $1, r.source_unit_id, r.id_hash, r.content_hash, r.context, r.source, r.target, r.state, r.ord,
            r.num_words, r.num_chars, 100, r.file_location::jsonb
       FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::smallint[], $9::int[],
                   $10::int[], $11::text[])
            WITH ORDINALITY AS r(source_unit_id, id_hash, content_hash, context, source, target, state, num_words, num_chars,
                                 file_location, ord)
      ORDER BY r.ord
     RETURNING id`,
    [
      id,
      strings.map((_, i) => sourceUnitIds?.[i] ?? null),
      strings.map((s) => s.idHash.toString()),
      strings.map((s) => s.contentHash.toString()),
      strings.map((s) => s.context),
      strings.map((s) => s.source),
      targets,
      states,
      strings.map((s) => s.numWords),
      strings.map((s) => [...s.source].length),
      strings.map((s) => JSON.stringify({ path: nestedPathFromContext(s.context), valueType: 'string' })),
    ],
  );
  const unitIds = rows.map((row) => String(row.id)).sort((a, b) => Number(a) - Number(b));
  if (isSource) await dataSource.query('UPDATE units SET source_unit_id = id WHERE translation_id = $1', [id]);
  // History of a scan: 59 for the first translated unit of a target language (as a re-read would record), then 0.
  const firstTranslated = states.findIndex((state) => state === 20);
  const history: Array<[number, string | null, string]> = [];
  if (!isSource && firstTranslated >= 0) history.push([59, unitIds[firstTranslated], targets[firstTranslated]]);
  history.push([0, null, '']);
  for (const [action, unitId, target] of history) {
    await dataSource.query(
      `INSERT INTO changes (action, unit_id, target, project_id, component_id, translation_id, language_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [action, unitId, target, project.id, component.id, id, languageId],
    );
  }
  return { id, languageCode, isSource, filename, unitIds, total: strings.length, translated };
}
