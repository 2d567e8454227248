import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13 "Done means": `source:"…"` over 300,000 units answers with p99 ≤ 100 ms. Such a search finds the
 * units holding their own matching text (the trigram index), then every unit linked to one of them, which
 * holds the same source text (search-fields.ts throughSourceUnits). Read through the plain source_unit_id
 * index, each of those units cost a visit to its own table page (2,500 pages for one word of the benchmark:
 * about half of the statement). Keyed by (source_unit_id, id), with translation_id for the visibility filter
 * of non-superusers, and only over linked units that do not hold their own text (the branch's condition), the
 * index answers that branch by an index-only scan (units-read.service.ts matchingUnits).
 */
export class LinkedToSourceIndex1796701400000 implements MigrationInterface {
  name = 'LinkedToSourceIndex1796701400000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_units_linked_to_source" ON "units" ("source_unit_id", "id") INCLUDE ("translation_id") WHERE NOT "source_differs" AND "source_unit_id" <> "id"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_units_linked_to_source"`);
  }
}
