import type { DataSource, EntityManager } from 'typeorm';
import { generateUserToken, hashToken } from '../../src/common/auth/token-hash';
import { Component } from '../../src/modules/components/component.entity';
import { Language } from '../../src/modules/languages/language.entity';
import { Translation } from '../../src/modules/translations/translation.entity';

type Db = DataSource | EntityManager;

/** A user row with an API token, for tests that need a caller other than the bootstrap administrator. */
export async function createUserWithToken(
  db: Db,
  username: string,
  options: { isSuperuser?: boolean; fullName?: string; email?: string } = {},
): Promise<{ id: number; username: string; token: string }> {
  const rows: Array<{ id: number }> = await db.query(
    'INSERT INTO users (username, full_name, email, is_superuser) VALUES ($1, $2, $3, $4) RETURNING id',
    [username, options.fullName ?? username, options.email ?? `${username}@example.org`, options.isSuperuser ?? false],
  );
  const token = generateUserToken();
  await db.query('INSERT INTO api_tokens (user_id, key_hash) VALUES ($1, $2)', [rows[0].id, hashToken(token)]);
  return { id: rows[0].id, username, token };
}

/** A translation row of `component` in `language` (no units), enough to make the language "in use". */
export async function createTranslation(db: Db, component: Component, language: Language): Promise<Translation> {
  const repository = db.getRepository(Translation);
  return repository.save(
    repository.create({
      componentId: component.id,
      languageId: language.id,
      languageCode: language.code,
      filename: component.filemask.replace('*', language.code),
      isSource: language.id === component.sourceLanguageId,
      isTemplate: language.id === component.sourceLanguageId,
    }),
  );
}
