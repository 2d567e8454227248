import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13 "Done means": `state:<translated` and `has:check` over 300,000 units answer with p99 ≤ 100 ms.
 * Both were a sequential scan of units for the exact `count` of the page envelope (DRF's paginator counts
 * the whole match set, as Weblate's does) and a walk of the primary key that filtered away every unit before
 * the first match. Partial indexes over the matching units, keyed by id (the order of `/api/units/`), turn the
 * count into an index-only scan of the matches alone and the page into its first entries. INCLUDE
 * (translation_id, state) lets the visibility filter of non-superusers (`translation_id = ANY(…)`) and the
 * narrower state searches (`state:<=needs-checking`, `is:fuzzy`, `state:empty`, which PostgreSQL proves imply
 * `state < 20`) be checked in the index without reading the table.
 */
export class SearchFilterIndexes1796640000000 implements MigrationInterface {
  name = 'SearchFilterIndexes1796640000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_units_not_translated" ON "units" ("id") INCLUDE ("translation_id", "state") WHERE "state" < 20`);
    await queryRunner.query(`CREATE INDEX "IDX_units_failing_check" ON "units" ("id") INCLUDE ("translation_id") WHERE "has_failing_check"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_units_failing_check"`);
    await queryRunner.query(`DROP INDEX "IDX_units_not_translated"`);
  }
}
