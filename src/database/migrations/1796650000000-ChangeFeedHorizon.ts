import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change feed's horizon per database (src/modules/changes/change-feed.ts). The feed hands out only the
 * changes of transactions older than every transaction that could still write one. It used
 * pg_snapshot_xmin(pg_current_snapshot()), which counts the running transactions of every database of the
 * server: a long transaction in another database (another service, a test run, a forgotten `psql` session)
 * held back every webhook, e-mail and change stream of Glossa until it ended. Only this database's
 * transactions can write its `changes`, so the horizon skips the running transactions that provably belong
 * to another database (pg_stat_activity: backend_xid with another datname). A running transaction whose
 * database cannot be told (it ended between the snapshot and the read of pg_stat_activity, or its session is
 * hidden) still holds the horizon back, as before: the rule only ever moves the horizon for transactions
 * that cannot have written a change here. Hand-written: TypeORM does not track functions.
 */
export class ChangeFeedHorizon1796650000000 implements MigrationInterface {
  name = 'ChangeFeedHorizon1796650000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // backend_xid is a 32-bit xid; the snapshot's xids are xid8 (epoch << 32 | xid): compare the low 32 bits.
    await queryRunner.query(`
      CREATE FUNCTION glossa_feed_horizon() RETURNS bigint LANGUAGE sql STABLE AS $$
        SELECT coalesce(min(x::text::bigint), pg_snapshot_xmax(pg_current_snapshot())::text::bigint)
          FROM pg_snapshot_xip(pg_current_snapshot()) AS x
         WHERE (x::text::bigint % 4294967296) NOT IN (
                 SELECT a.backend_xid::text::bigint FROM pg_stat_activity a
                  WHERE a.backend_xid IS NOT NULL AND a.datname IS DISTINCT FROM current_database())
      $$
    `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION glossa_feed_horizon()`);
  }
}
