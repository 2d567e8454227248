import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Positions of the change feed's consumers (src/modules/changes/change-feed-cursor.entity.ts). Generated.
 */
export class ChangeFeedCursors1796000000001 implements MigrationInterface {
    name = 'ChangeFeedCursors1796000000001'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "change_feed_cursors" (
                "name" character varying(100) NOT NULL,
                "xact" bigint NOT NULL,
                "change_id" bigint NOT NULL,
                "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_8f2618ddb7efbfb48bd5191a644" PRIMARY KEY ("name")
            )
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP TABLE "change_feed_cursors"
        `);
    }

}
