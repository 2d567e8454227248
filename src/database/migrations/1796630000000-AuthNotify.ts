import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every process caches token → caller and the caller's global permissions (src/common/auth/token-cache.ts,
 * issue 15 item 2), and forgets them when one of the tables behind that answer changes: a statement trigger on
 * each sends NOTIFY glossa_auth, which PostgreSQL delivers at commit to every listening process (every replica).
 * Statement-level, so a bulk change is one notification, and PostgreSQL folds identical notifications of one
 * transaction into one. Written by hand: TypeORM models neither functions nor triggers.
 */
const TABLES = ['api_tokens', 'users', 'group_members', 'groups', 'group_roles', 'roles'];

export class AuthNotify1796630000000 implements MigrationInterface {
  name = 'AuthNotify1796630000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION glossa_auth_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('glossa_auth', '');
        RETURN NULL;
      END
      $$
    `);
    for (const table of TABLES) {
      await queryRunner.query(`
        CREATE TRIGGER ${table}_auth_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "${table}"
        FOR EACH STATEMENT EXECUTE FUNCTION glossa_auth_notify()
      `);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) await queryRunner.query(`DROP TRIGGER ${table}_auth_notify ON "${table}"`);
    await queryRunner.query(`DROP FUNCTION glossa_auth_notify()`);
  }
}
