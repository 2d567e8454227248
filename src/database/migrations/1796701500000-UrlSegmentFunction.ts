import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The unit mapper runs in PostgreSQL (unit.response.ts unitFieldsSql) and writes links whose segments must be
 * encoded as encodeSegment encodes them (link-builder.ts): each character outside SAFE_SEGMENT as the upper-case
 * `%XX` of its UTF-8 bytes, as encodeURIComponent writes them. Slugs never need it and language codes rarely do,
 * so the mapper calls this only for a value with another character; as a function it is not planned again in
 * every statement that could call it (a page's statement is planned per request).
 */
export class UrlSegmentFunction1796701500000 implements MigrationInterface {
  name = 'UrlSegmentFunction1796701500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION glossa_url_segment(value text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT COALESCE(string_agg(
                 CASE WHEN ch ~ '^[-A-Za-z0-9._~@:+$,;=!*''()]$' THEN ch
                      ELSE upper(regexp_replace(encode(convert_to(ch, 'UTF8'), 'hex'), '(..)', '%\\1', 'g')) END,
                 '' ORDER BY n), '')
          FROM regexp_split_to_table(value, '') WITH ORDINALITY AS chars(ch, n)
      $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION glossa_url_segment(text)`);
  }
}
