import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The glossa_auth notification (migration AuthNotify) now carries the id of the transaction that changed keys,
 * users, teams or roles. Every process reports the latest one it has heard (`glossa_auth_last_change_heard` on
 * /metrics, auth-cache.service.ts), so an operator, or a test, can tell whether a replica has forgotten what a
 * given change made stale: PostgreSQL delivers a commit's notification to each listener on its own schedule.
 * Still one notification per transaction: PostgreSQL folds identical notifications of one transaction, and the
 * payload is the same for every statement in it. Written by hand: TypeORM models neither functions nor triggers.
 */
export class AuthNotifyTransaction1796701600000 implements MigrationInterface {
  name = 'AuthNotifyTransaction1796701600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION glossa_auth_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('glossa_auth', pg_current_xact_id()::text);
        RETURN NULL;
      END
      $$
    `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION glossa_auth_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('glossa_auth', '');
        RETURN NULL;
      END
      $$
    `);
  }
}
