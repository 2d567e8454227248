import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13 item 5, the search language. `changes (unit_id, timestamp)` serves the change filters
 * (`changed:`, `changed_by:`, `change_time:`, `change_action:`, `last_changed:`), which look for change
 * events of one unit. Trigram GIN indexes serve `ILIKE '%…%'` on units' source, target and context (bare
 * words search all three) instead of a scan. pg_trgm ships with PostgreSQL's contrib (15: version 1.6) and is
 * a trusted extension (a database owner may create it); PGlite bundles it and Glossa's embedded database
 * loads it. Where it is not installed, or the role may not create it, the trigram indexes are skipped: the
 * searches stay correct, only slower (docs/performance.md).
 */
export class SearchIndexes1795900000003 implements MigrationInterface {
  name = 'SearchIndexes1795900000003';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_2388440a1c7bc255d6a705db53" ON "changes" ("unit_id", "timestamp")`);
    const [{ usable }]: Array<{ usable: boolean }> = await queryRunner.query(
      `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
              OR (EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm')
                  AND has_database_privilege(current_database(), 'CREATE')) AS usable`,
    );
    if (!usable) return;
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    for (const column of ['source', 'target', 'context']) {
      await queryRunner.query(`CREATE INDEX IF NOT EXISTS "IDX_units_${column}_trgm" ON "units" USING gin ("${column}" gin_trgm_ops)`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of ['source', 'target', 'context']) await queryRunner.query(`DROP INDEX IF EXISTS "IDX_units_${column}_trgm"`);
    await queryRunner.query(`DROP INDEX "IDX_2388440a1c7bc255d6a705db53"`);
  }
}
