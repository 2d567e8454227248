import { MigrationInterface, QueryRunner } from "typeorm";

/** Teams (groups), roles and their project/component/language/member selections (weblate-api.md §2.5, §5.3, §5.4). */
export class AccessControl1795359149649 implements MigrationInterface {
    name = 'AccessControl1795359149649'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "roles" (
                "id" SERIAL NOT NULL,
                "name" character varying(200) NOT NULL,
                "permissions" text array NOT NULL DEFAULT '{}',
                CONSTRAINT "UQ_648e3f5447f725579d7d4ffdfb7" UNIQUE ("name"),
                CONSTRAINT "PK_c1433d71a4838793a49dcad46ab" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE TABLE "groups" (
                "id" SERIAL NOT NULL,
                "name" character varying(150) NOT NULL,
                "project_selection" smallint NOT NULL DEFAULT '0',
                "language_selection" smallint NOT NULL DEFAULT '1',
                "internal" boolean NOT NULL DEFAULT false,
                "implicit_for" character varying(20),
                CONSTRAINT "UQ_664ea405ae2a10c264d582ee563" UNIQUE ("name"),
                CONSTRAINT "PK_659d1483316afb28afd3a90646e" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE TABLE "group_roles" (
                "group_id" integer NOT NULL,
                "role_id" integer NOT NULL,
                CONSTRAINT "PK_31cb33278c5d3f7aed58766840a" PRIMARY KEY ("group_id", "role_id")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_0f428ea82b51ea6c795689cdb8" ON "group_roles" ("group_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_35d4b5f7da6e1a9a730c3621ec" ON "group_roles" ("role_id")
        `);
        await queryRunner.query(`
            CREATE TABLE "group_projects" (
                "group_id" integer NOT NULL,
                "project_id" integer NOT NULL,
                CONSTRAINT "PK_6209f0d219325e5a1e733c919b9" PRIMARY KEY ("group_id", "project_id")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_3a5499480373e63f68e0a4abd3" ON "group_projects" ("group_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_faf59265e29f614af594fcee9e" ON "group_projects" ("project_id")
        `);
        await queryRunner.query(`
            CREATE TABLE "group_components" (
                "group_id" integer NOT NULL,
                "component_id" integer NOT NULL,
                CONSTRAINT "PK_407777ac24802b45d9c145c790c" PRIMARY KEY ("group_id", "component_id")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_cb8d155c6bd16bbfe2baddf196" ON "group_components" ("group_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_23435743fb1d4f8ed67e8612b0" ON "group_components" ("component_id")
        `);
        await queryRunner.query(`
            CREATE TABLE "group_languages" (
                "group_id" integer NOT NULL,
                "language_id" integer NOT NULL,
                CONSTRAINT "PK_379131e480b539499db0e48ba04" PRIMARY KEY ("group_id", "language_id")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_785ae22752bf0e389f0ebd6283" ON "group_languages" ("group_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_df27184cdc435eeaec364acdcc" ON "group_languages" ("language_id")
        `);
        await queryRunner.query(`
            CREATE TABLE "group_members" (
                "group_id" integer NOT NULL,
                "user_id" integer NOT NULL,
                CONSTRAINT "PK_f5939ee0ad233ad35e03f5c65c1" PRIMARY KEY ("group_id", "user_id")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_2c840df5db52dc6b4a1b0b69c6" ON "group_members" ("group_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_20a555b299f75843aa53ff8b0e" ON "group_members" ("user_id")
        `);
        await queryRunner.query(`
            ALTER TABLE "group_roles"
            ADD CONSTRAINT "FK_0f428ea82b51ea6c795689cdb8a" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE
        `);
        await queryRunner.query(`
            ALTER TABLE "group_roles"
            ADD CONSTRAINT "FK_35d4b5f7da6e1a9a730c3621ecc" FOREIGN KEY ("role_id") REFERENCES "roles"("id") ON DELETE CASCADE ON UPDATE CASCADE
        `);
        await queryRunner.query(`
            ALTER TABLE "group_projects"
            ADD CONSTRAINT "FK_3a5499480373e63f68e0a4abd35" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE
        `);
        await queryRunner.query(`
            ALTER TABLE "group_projects"
            ADD CONSTRAINT "FK_faf59265e29f614af594fcee9ef" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE
        `);
        await queryRunner.query(`
            ALTER TABLE "group_components"
            ADD CONSTRAINT "FK_cb8d155c6bd16bbfe2baddf1961" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE
        `);
        await queryRunner.query(`
            ALTER TABLE "group_components"
            ADD CONSTRAINT "FK_23435743fb1d4f8ed67e8612b06" FOREIGN KEY ("component_id") REFERENCES "components"("id") ON DELETE CASCADE ON UPDATE CASCADE
        `);
        await queryRunner.query(`
            ALTER TABLE "group_languages"
            ADD CONSTRAINT "FK_785ae22752bf0e389f0ebd62838" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE
        `);
        await queryRunner.query(`
            ALTER TABLE "group_languages"
            ADD CONSTRAINT "FK_df27184cdc435eeaec364acdcc4" FOREIGN KEY ("language_id") REFERENCES "languages"("id") ON DELETE CASCADE ON UPDATE CASCADE
        `);
        await queryRunner.query(`
            ALTER TABLE "group_members"
            ADD CONSTRAINT "FK_2c840df5db52dc6b4a1b0b69c6e" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE CASCADE
        `);
        await queryRunner.query(`
            ALTER TABLE "group_members"
            ADD CONSTRAINT "FK_20a555b299f75843aa53ff8b0ee" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "group_members" DROP CONSTRAINT "FK_20a555b299f75843aa53ff8b0ee"
        `);
        await queryRunner.query(`
            ALTER TABLE "group_members" DROP CONSTRAINT "FK_2c840df5db52dc6b4a1b0b69c6e"
        `);
        await queryRunner.query(`
            ALTER TABLE "group_languages" DROP CONSTRAINT "FK_df27184cdc435eeaec364acdcc4"
        `);
        await queryRunner.query(`
            ALTER TABLE "group_languages" DROP CONSTRAINT "FK_785ae22752bf0e389f0ebd62838"
        `);
        await queryRunner.query(`
            ALTER TABLE "group_components" DROP CONSTRAINT "FK_23435743fb1d4f8ed67e8612b06"
        `);
        await queryRunner.query(`
            ALTER TABLE "group_components" DROP CONSTRAINT "FK_cb8d155c6bd16bbfe2baddf1961"
        `);
        await queryRunner.query(`
            ALTER TABLE "group_projects" DROP CONSTRAINT "FK_faf59265e29f614af594fcee9ef"
        `);
        await queryRunner.query(`
            ALTER TABLE "group_projects" DROP CONSTRAINT "FK_3a5499480373e63f68e0a4abd35"
        `);
        await queryRunner.query(`
            ALTER TABLE "group_roles" DROP CONSTRAINT "FK_35d4b5f7da6e1a9a730c3621ecc"
        `);
        await queryRunner.query(`
            ALTER TABLE "group_roles" DROP CONSTRAINT "FK_0f428ea82b51ea6c795689cdb8a"
        `);
        await queryRunner.query(`
            DROP TABLE "group_members"
        `);
        await queryRunner.query(`
            DROP TABLE "group_languages"
        `);
        await queryRunner.query(`
            DROP TABLE "group_components"
        `);
        await queryRunner.query(`
            DROP TABLE "group_projects"
        `);
        await queryRunner.query(`
            DROP TABLE "group_roles"
        `);
        await queryRunner.query(`
            DROP TABLE "groups"
        `);
        await queryRunner.query(`
            DROP TABLE "roles"
        `);
    }

}
