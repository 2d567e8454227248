import type { EntityManager } from 'typeorm';
import { calculateHash } from '../../common/hashing/weblate-hash';
import { countWords } from '../../common/text/word-count';
import type { FileParser } from '../../formats/file-parser';
import { FormatWriteError } from '../../formats/format';
import { PLURAL_SEPARATOR, type FileFormat, type UnitWrite } from '../../formats/store';
import type { TranslationRef } from '../translations/translation-lookup.service';
import { recordNewUnits } from './new-unit-records';

// A string added to a monolingual component (weblate-api.md §10.1: POST `.../units/` on the source language,
// and upload `method=add` there, formats.md §5): the key joins the source translation (its file is the
// template) and, untranslated, every other translation. The new source unit is pending: the next commit
// writes it into the template (src/sync write-back).

/**
 * The source translation is read-only in Glossa (its file is the template, as after an import), so a new source
 * unit is state 100 like every other source unit.
 */
const SOURCE_STATE = 100;

/** Adds `key` with `value` (plural forms) to the source translation `translation` and to every other one; returns the source unit's id. */
export async function addMonolingualUnit(manager: EntityManager, userId: number, translation: TranslationRef, key: string, value: readonly string[]): Promise<string> {
  const { component } = translation;
  const source = value.join(PLURAL_SEPARATOR);
  // Monolingual identity (weblate-api.md §9.2, §9.3): id_hash from the key, content_hash from source + key.
  const idHash = calculateHash(key).toString();
  const contentHash = calculateHash(source, key).toString();
  const common = [idHash, contentHash, key, source, countWords(source, component.sourceLanguageCode), [...source].length, null];
  const [{ id }]: Array<{ id: string }> = await manager.query(
    `INSERT INTO units (translation_id, id_hash, content_hash, context, source, num_words, num_chars, file_location, target,
                        state, position, priority, pending)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $5, $9,
             (SELECT count(*) + 1 FROM units WHERE translation_id = $1), 100, true)
     RETURNING id`,
    [translation.id, ...common, SOURCE_STATE],
  );
  await manager.query('UPDATE units SET source_unit_id = id WHERE id = $1', [id]);
  // Every other translation gets the string untranslated, at the end (position = its count + 1, §9.7).
  const others: Array<{ id: string; translation_id: number; language_id: number }> = await manager.query(
    `INSERT INTO units (translation_id, source_unit_id, id_hash, content_hash, context, source, num_words, num_chars,
                        file_location, target, state, position, priority, pending)
     SELECT t.id, $1, $2, $3, $4, $5, $6, $7, $8::jsonb, '', 0,
            (SELECT count(*) + 1 FROM units x WHERE x.translation_id = t.id), 100, false
       FROM translations t WHERE t.component_id = $9 AND t.id <> $10
      ORDER BY t.id
     RETURNING id, translation_id, (SELECT language_id FROM translations WHERE id = translation_id) AS language_id`,
    [id, ...common, component.id, translation.id],
  );
  const created = [{ id, translation_id: translation.id, language_id: translation.languageId, target: source }, ...others.map((o) => ({ ...o, target: '' }))];
  await recordNewUnits(manager, component, created, userId);
  return id;
}

/**
 * Null when the format can write every one of `keys` into one file, else why not: a key whose place is taken
 * by an object or a value, or that the format cannot spell. Checked by writing the keys into the format's new
 * file (in the parse worker), as the next commit would write the template.
 */
export async function unwritableKeys(parser: FileParser, format: FileFormat, keys: readonly string[]): Promise<string | null> {
  const write = (context: string): UnitWrite => ({ context, source: [], target: ['x'], state: 'translated' });
  const plural = { number: 2, formula: '(n != 1)' };
  try {
    const empty = await parser.create(format, null, { languageCode: 'en', plural });
    if (empty === null) return null;
    await parser.write(format, empty, { update: [], add: keys.map(write) }, { languageCode: 'en', plural });
    return null;
  } catch (error) {
    if (error instanceof FormatWriteError) return error.message;
    throw error;
  }
}
