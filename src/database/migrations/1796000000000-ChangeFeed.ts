import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The change feed (src/modules/changes/change-feed.ts, issue 14): each change records the transaction that
 * wrote it, so readers can follow the history without skipping a change whose transaction commits after a
 * later id's (glossa_xact_id(): the writing transaction's id as a bigint), and every statement that writes changes wakes listeners (NOTIFY is delivered at commit, when the
 * rows become visible). Generated, then the functions and the trigger added by hand (TypeORM models neither).
 */
export class ChangeFeed1796000000000 implements MigrationInterface {
    name = 'ChangeFeed1796000000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        // A function, not the cast expression itself: TypeORM strips casts from the defaults it reads back, and the
        // schema check would then always find the column changed.
        await queryRunner.query(`
            CREATE FUNCTION glossa_xact_id() RETURNS bigint LANGUAGE sql VOLATILE AS 'SELECT pg_current_xact_id()::text::bigint'
        `);
        await queryRunner.query(`
            ALTER TABLE "changes"
            ADD "xact" bigint NOT NULL DEFAULT glossa_xact_id()
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_a85850fdaa7444b2ea597c7177" ON "changes" ("xact", "id")
        `);
        // One notification per statement, and PostgreSQL folds identical ones of a transaction into one.
        await queryRunner.query(`
            CREATE FUNCTION glossa_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('glossa_changes', '');
                RETURN NULL;
            END
            $$
        `);
        await queryRunner.query(`
            CREATE TRIGGER changes_notify AFTER INSERT ON "changes"
            FOR EACH STATEMENT EXECUTE FUNCTION glossa_changes_notify()
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TRIGGER changes_notify ON "changes"`);
        await queryRunner.query(`DROP FUNCTION glossa_changes_notify()`);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_a85850fdaa7444b2ea597c7177"
        `);
        await queryRunner.query(`
            ALTER TABLE "changes" DROP COLUMN "xact"
        `);
        await queryRunner.query(`DROP FUNCTION glossa_xact_id()`);
    }

}
