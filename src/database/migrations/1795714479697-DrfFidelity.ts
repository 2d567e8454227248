import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Issue 12 item 3 (and item 5's `defining_project`): built-in teams as Weblate has them.
 *
 * - "Users" becomes a real membership (Weblate's auto-assignment of every new user): the team is marked
 *   `auto_assign` instead of applying implicitly to every signed-in caller, every existing user joins it,
 *   and a trigger makes every user inserted later a member, whatever creates it (API, CLI, ADMIN_TOKEN
 *   bootstrap, a test factory). Removing a user from the team now removes the team's rights.
 * - Weblate's `anonymous` user: an inactive account (it can never authenticate), member of Guests,
 *   listed in /api/users/ as Weblate 4.x lists it. Created unless the name is taken.
 * - Teams may belong to a project (`defining_project`); they are deleted with it.
 * On a new database the built-in teams do not exist yet when this runs: AccessBootstrap creates them and
 * adds the existing users (access-bootstrap.ts).
 */
export class DrfFidelity1795714479697 implements MigrationInterface {
    name = 'DrfFidelity1795714479697'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "groups"
            ADD "auto_assign" boolean NOT NULL DEFAULT false
        `);
        await queryRunner.query(`
            ALTER TABLE "groups"
            ADD "defining_project_id" integer
        `);
        await queryRunner.query(`
            ALTER TABLE "groups"
            ADD CONSTRAINT "FK_44ee85635f63a3635dd563475ca" FOREIGN KEY ("defining_project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        // Data and trigger (not part of the entity schema, so migration:generate neither writes nor drops them).
        await queryRunner.query(`
            UPDATE "groups" SET "auto_assign" = TRUE, "implicit_for" = NULL
             WHERE "internal" AND "implicit_for" = 'authenticated'
        `);
        await queryRunner.query(`
            INSERT INTO "users" ("username", "full_name", "email", "is_superuser", "is_active")
            VALUES ('anonymous', 'Anonymous', 'noreply@weblate.org', FALSE, FALSE)
            ON CONFLICT DO NOTHING
        `);
        await queryRunner.query(`
            INSERT INTO "group_members" ("group_id", "user_id")
            SELECT g."id", u."id" FROM "groups" g CROSS JOIN "users" u
             WHERE g."auto_assign" AND u."username" <> 'anonymous'
            ON CONFLICT DO NOTHING
        `);
        await queryRunner.query(`
            INSERT INTO "group_members" ("group_id", "user_id")
            SELECT g."id", u."id" FROM "groups" g CROSS JOIN "users" u
             WHERE g."implicit_for" = 'anonymous' AND u."username" = 'anonymous' AND NOT u."is_active"
            ON CONFLICT DO NOTHING
        `);
        await queryRunner.query(`
            CREATE FUNCTION "glossa_auto_assign_groups"() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF NEW."username" <> 'anonymous' THEN
                INSERT INTO "group_members" ("group_id", "user_id")
                SELECT "id", NEW."id" FROM "groups" WHERE "auto_assign"
                ON CONFLICT DO NOTHING;
              END IF;
              RETURN NEW;
            END
            $$
        `);
        await queryRunner.query(`
            CREATE TRIGGER "users_auto_assign_groups" AFTER INSERT ON "users"
            FOR EACH ROW EXECUTE FUNCTION "glossa_auto_assign_groups"()
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TRIGGER "users_auto_assign_groups" ON "users"`);
        await queryRunner.query(`DROP FUNCTION "glossa_auto_assign_groups"()`);
        await queryRunner.query(`
            DELETE FROM "group_members" gm USING "groups" g
             WHERE gm."group_id" = g."id" AND g."auto_assign"
        `);
        await queryRunner.query(`UPDATE "groups" SET "implicit_for" = 'authenticated' WHERE "auto_assign"`);
        await queryRunner.query(`
            ALTER TABLE "groups" DROP CONSTRAINT "FK_44ee85635f63a3635dd563475ca"
        `);
        await queryRunner.query(`
            ALTER TABLE "groups" DROP COLUMN "defining_project_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "groups" DROP COLUMN "auto_assign"
        `);
    }

}
