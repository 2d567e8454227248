import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API rate-limit counters shared by every Glossa process on the database (src/ops/rate-limit.ts). Not an
 * entity: only that one upsert reads or writes it. UNLOGGED: counters need no crash safety or replication,
 * and skipping the WAL keeps the per-request write cheap.
 */
export class RateLimitCounters1795500000000 implements MigrationInterface {
  name = 'RateLimitCounters1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE UNLOGGED TABLE "rate_limit_counters" ("key" character varying(200) NOT NULL, "window_start" TIMESTAMP WITH TIME ZONE NOT NULL, "hits" integer NOT NULL, CONSTRAINT "PK_rate_limit_counters" PRIMARY KEY ("key"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "rate_limit_counters"`);
  }
}
