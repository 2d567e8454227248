import { MigrationInterface, QueryRunner } from "typeorm";

export class InitialSchema1795332378641 implements MigrationInterface {
    name = 'InitialSchema1795332378641'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "languages" (
                "id" SERIAL NOT NULL,
                "code" character varying(50) NOT NULL,
                "name" character varying(100) NOT NULL,
                "direction" character varying(3) NOT NULL DEFAULT 'ltr',
                "population" bigint NOT NULL DEFAULT '0',
                "aliases" text array NOT NULL DEFAULT '{}',
                "plural_number" smallint NOT NULL DEFAULT '2',
                "plural_formula" text NOT NULL DEFAULT 'n != 1',
                "plural_type" smallint NOT NULL DEFAULT '1',
                CONSTRAINT "UQ_7397752718d1c9eb873722ec9b2" UNIQUE ("code"),
                CONSTRAINT "PK_b517f827ca496b29f4d549c631d" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE TABLE "projects" (
                "id" SERIAL NOT NULL,
                "name" character varying(60) NOT NULL,
                "slug" character varying(60) NOT NULL,
                "web" character varying(200) NOT NULL DEFAULT '',
                "instructions" text NOT NULL DEFAULT '',
                "translation_review" boolean NOT NULL DEFAULT false,
                "source_review" boolean NOT NULL DEFAULT false,
                "set_language_team" boolean NOT NULL DEFAULT true,
                "enable_hooks" boolean NOT NULL DEFAULT true,
                "language_aliases" text NOT NULL DEFAULT '',
                "access_control" smallint NOT NULL DEFAULT '0',
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "UQ_2187088ab5ef2a918473cb99007" UNIQUE ("name"),
                CONSTRAINT "UQ_96e045ab8b0271e5f5a91eae1ee" UNIQUE ("slug"),
                CONSTRAINT "PK_6271df0a7aed1d6c0691ce6ac50" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE TABLE "components" (
                "id" SERIAL NOT NULL,
                "project_id" integer NOT NULL,
                "name" character varying(100) NOT NULL,
                "slug" character varying(100) NOT NULL,
                "source_language_id" integer NOT NULL,
                "vcs" character varying(20) NOT NULL DEFAULT 'git',
                "repo" character varying(300) NOT NULL,
                "push" character varying(300) NOT NULL DEFAULT '',
                "git_export" character varying(220) NOT NULL DEFAULT '',
                "branch" character varying(200) NOT NULL DEFAULT '',
                "push_branch" character varying(200) NOT NULL DEFAULT '',
                "filemask" character varying(400) NOT NULL,
                "screenshot_filemask" character varying(400) NOT NULL DEFAULT '',
                "template" character varying(400) NOT NULL DEFAULT '',
                "edit_template" boolean NOT NULL DEFAULT true,
                "intermediate" character varying(400) NOT NULL DEFAULT '',
                "new_base" character varying(400) NOT NULL DEFAULT '',
                "file_format" character varying(50) NOT NULL,
                "license" character varying(150) NOT NULL DEFAULT '',
                "agreement" text NOT NULL DEFAULT '',
                "new_lang" character varying(10) NOT NULL DEFAULT 'add',
                "language_code_style" character varying(20) NOT NULL DEFAULT '',
                "check_flags" text NOT NULL DEFAULT '',
                "priority" smallint NOT NULL DEFAULT '100',
                "enforced_checks" text array NOT NULL DEFAULT '{}',
                "restricted" boolean NOT NULL DEFAULT false,
                "repoweb" character varying(200) NOT NULL DEFAULT '',
                "report_source_bugs" character varying(254) NOT NULL DEFAULT '',
                "merge_style" character varying(10) NOT NULL DEFAULT 'rebase',
                "commit_message" text NOT NULL,
                "add_message" text NOT NULL,
                "delete_message" text NOT NULL,
                "merge_message" text NOT NULL,
                "addon_message" text NOT NULL,
                "pull_message" text NOT NULL,
                "allow_translation_propagation" boolean NOT NULL DEFAULT true,
                "manage_units" boolean NOT NULL DEFAULT false,
                "enable_suggestions" boolean NOT NULL DEFAULT true,
                "suggestion_voting" boolean NOT NULL DEFAULT false,
                "suggestion_autoaccept" smallint NOT NULL DEFAULT '0',
                "push_on_commit" boolean NOT NULL DEFAULT true,
                "commit_pending_age" smallint NOT NULL DEFAULT '24',
                "auto_lock_error" boolean NOT NULL DEFAULT true,
                "language_regex" character varying(500) NOT NULL DEFAULT '^[^.]+$',
                "variant_regex" character varying(190) NOT NULL DEFAULT '',
                "is_glossary" boolean NOT NULL DEFAULT false,
                "glossary_color" character varying(30) NOT NULL DEFAULT 'silver',
                "locked" boolean NOT NULL DEFAULT false,
                "task_id" uuid,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_0d742661c63926321b5f5eac1ad" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "IDX_b95924818f3d95284ffc78238a" ON "components" ("project_id", "name")
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "IDX_720b169b5905c69118dfa3bfd5" ON "components" ("project_id", "slug")
        `);
        await queryRunner.query(`
            CREATE TABLE "users" (
                "id" SERIAL NOT NULL,
                "username" character varying(150) NOT NULL,
                "full_name" character varying(150) NOT NULL DEFAULT '',
                "email" character varying(190) NOT NULL DEFAULT '',
                "is_superuser" boolean NOT NULL DEFAULT false,
                "is_active" boolean NOT NULL DEFAULT true,
                "is_bot" boolean NOT NULL DEFAULT false,
                "date_joined" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "UQ_fe0bb3f6520ee0469504521e710" UNIQUE ("username"),
                CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE TABLE "translations" (
                "id" SERIAL NOT NULL,
                "component_id" integer NOT NULL,
                "language_id" integer NOT NULL,
                "language_code" character varying(50) NOT NULL,
                "filename" character varying(400) NOT NULL,
                "revision" character varying(100) NOT NULL DEFAULT '',
                "is_source" boolean NOT NULL DEFAULT false,
                "is_template" boolean NOT NULL DEFAULT false,
                "total" integer NOT NULL DEFAULT '0',
                "total_words" integer NOT NULL DEFAULT '0',
                "total_chars" integer NOT NULL DEFAULT '0',
                "translated" integer NOT NULL DEFAULT '0',
                "translated_words" integer NOT NULL DEFAULT '0',
                "translated_chars" integer NOT NULL DEFAULT '0',
                "fuzzy" integer NOT NULL DEFAULT '0',
                "fuzzy_words" integer NOT NULL DEFAULT '0',
                "fuzzy_chars" integer NOT NULL DEFAULT '0',
                "approved" integer NOT NULL DEFAULT '0',
                "approved_words" integer NOT NULL DEFAULT '0',
                "approved_chars" integer NOT NULL DEFAULT '0',
                "readonly" integer NOT NULL DEFAULT '0',
                "readonly_words" integer NOT NULL DEFAULT '0',
                "readonly_chars" integer NOT NULL DEFAULT '0',
                "failing_checks" integer NOT NULL DEFAULT '0',
                "failing_checks_words" integer NOT NULL DEFAULT '0',
                "have_suggestion" integer NOT NULL DEFAULT '0',
                "have_comment" integer NOT NULL DEFAULT '0',
                "last_change" TIMESTAMP WITH TIME ZONE,
                "last_author_id" integer,
                CONSTRAINT "PK_aca248c72ae1fb2390f1bf4cd87" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_914fcf1be64606618e76b06e82" ON "translations" ("language_id")
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "IDX_34791d9de0e31707a03e8fdc72" ON "translations" ("component_id", "language_id")
        `);
        await queryRunner.query(`
            CREATE TABLE "units" (
                "id" bigint GENERATED BY DEFAULT AS IDENTITY NOT NULL,
                "translation_id" integer NOT NULL,
                "source_unit_id" bigint,
                "id_hash" bigint NOT NULL,
                "content_hash" bigint NOT NULL,
                "context" text NOT NULL,
                "source" text NOT NULL,
                "previous_source" text NOT NULL DEFAULT '',
                "target" text NOT NULL DEFAULT '',
                "location" text NOT NULL DEFAULT '',
                "note" text NOT NULL DEFAULT '',
                "flags" text NOT NULL DEFAULT '',
                "extra_flags" text NOT NULL DEFAULT '',
                "explanation" text NOT NULL DEFAULT '',
                "state" smallint NOT NULL DEFAULT '0',
                "position" integer NOT NULL,
                "num_words" integer NOT NULL DEFAULT '0',
                "num_chars" integer NOT NULL DEFAULT '0',
                "priority" smallint NOT NULL DEFAULT '100',
                "pending" boolean NOT NULL DEFAULT false,
                "has_suggestion" boolean NOT NULL DEFAULT false,
                "has_comment" boolean NOT NULL DEFAULT false,
                "has_failing_check" boolean NOT NULL DEFAULT false,
                "file_location" jsonb,
                "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_5a8f2f064919b587d93936cb223" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_cff0ae7d92517c2589b57ec6df" ON "units" ("source_unit_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_d5401d3c44b22475aec8f20ab4" ON "units" ("translation_id", "position")
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "IDX_8457d48fa697bedfab55c9bdcf" ON "units" ("translation_id", "id_hash")
        `);
        await queryRunner.query(`
            CREATE TABLE "changes" (
                "id" bigint GENERATED BY DEFAULT AS IDENTITY NOT NULL,
                "action" smallint NOT NULL,
                "timestamp" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(),
                "unit_id" bigint,
                "translation_id" integer,
                "component_id" integer,
                "project_id" integer,
                "language_id" integer,
                "user_id" integer,
                "author_id" integer,
                "target" text NOT NULL DEFAULT '',
                "old" text NOT NULL DEFAULT '',
                "details" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "PK_ee28fdddd557d6e0d4949a9741f" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_a24a14545ee10243271c99142b" ON "changes" ("project_id", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_545bcab5890b3ac3d823c6395a" ON "changes" ("component_id", "id")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_09180fa90782431d5b2c58e9be" ON "changes" ("translation_id", "id")
        `);
        await queryRunner.query(`
            CREATE TABLE "tasks" (
                "id" uuid NOT NULL,
                "kind" character varying(50) NOT NULL,
                "component_id" integer,
                "status" character varying(20) NOT NULL DEFAULT 'queued',
                "progress" smallint NOT NULL DEFAULT '0',
                "result" jsonb,
                "log" text NOT NULL DEFAULT '',
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_8d12ff38fcc62aaba2cab748772" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE TABLE "api_tokens" (
                "id" SERIAL NOT NULL,
                "user_id" integer NOT NULL,
                "key_hash" character(64) NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "UQ_08c247de71c6da2b50511776020" UNIQUE ("key_hash"),
                CONSTRAINT "PK_c587455266b5fa8dace7194caac" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE TABLE "subscriptions" (
                "id" SERIAL NOT NULL,
                "user_id" integer NOT NULL,
                "notification" character varying(100) NOT NULL,
                "scope" smallint NOT NULL,
                "frequency" smallint NOT NULL,
                "project_id" integer,
                "component_id" integer,
                CONSTRAINT "PK_a87248d73155605cf782be9ee5e" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "IDX_076142d7943348f5630667a236" ON "subscriptions" (
                "user_id",
                "notification",
                "scope",
                "project_id",
                "component_id"
            )
        `);
        await queryRunner.query(`
            ALTER TABLE "components"
            ADD CONSTRAINT "FK_df139f4ce5006823bf294111882" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "components"
            ADD CONSTRAINT "FK_1ed56d12680046f12f526932eaa" FOREIGN KEY ("source_language_id") REFERENCES "languages"("id") ON DELETE NO ACTION ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "translations"
            ADD CONSTRAINT "FK_73785374778b9b6330bd6885271" FOREIGN KEY ("component_id") REFERENCES "components"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "translations"
            ADD CONSTRAINT "FK_914fcf1be64606618e76b06e821" FOREIGN KEY ("language_id") REFERENCES "languages"("id") ON DELETE NO ACTION ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "translations"
            ADD CONSTRAINT "FK_d136efa9a893831d83db4e5a597" FOREIGN KEY ("last_author_id") REFERENCES "users"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "units"
            ADD CONSTRAINT "FK_9a931335a15b31a4a102c5645d6" FOREIGN KEY ("translation_id") REFERENCES "translations"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "changes"
            ADD CONSTRAINT "FK_bfe713a554479f5ab5572420c79" FOREIGN KEY ("unit_id") REFERENCES "units"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "changes"
            ADD CONSTRAINT "FK_87979cdf87131fe8c4f8009fc75" FOREIGN KEY ("translation_id") REFERENCES "translations"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "changes"
            ADD CONSTRAINT "FK_c7c0f041d17111c364cf187b79b" FOREIGN KEY ("component_id") REFERENCES "components"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "changes"
            ADD CONSTRAINT "FK_33473358bd5f3b071af1a731dfe" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "changes"
            ADD CONSTRAINT "FK_dcee1201c8d131bfdffc08e26f0" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "changes"
            ADD CONSTRAINT "FK_9e8728102f78d10c9d5adb9c38b" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "api_tokens"
            ADD CONSTRAINT "FK_b74883f5884a42fd8496d389b25" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "subscriptions"
            ADD CONSTRAINT "FK_d0a95ef8a28188364c546eb65c1" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "subscriptions"
            ADD CONSTRAINT "FK_a42c58291243e36ddb80e98611d" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "subscriptions"
            ADD CONSTRAINT "FK_fa997b6e5961baa05c4e361e05a" FOREIGN KEY ("component_id") REFERENCES "components"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_fa997b6e5961baa05c4e361e05a"
        `);
        await queryRunner.query(`
            ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_a42c58291243e36ddb80e98611d"
        `);
        await queryRunner.query(`
            ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_d0a95ef8a28188364c546eb65c1"
        `);
        await queryRunner.query(`
            ALTER TABLE "api_tokens" DROP CONSTRAINT "FK_b74883f5884a42fd8496d389b25"
        `);
        await queryRunner.query(`
            ALTER TABLE "changes" DROP CONSTRAINT "FK_9e8728102f78d10c9d5adb9c38b"
        `);
        await queryRunner.query(`
            ALTER TABLE "changes" DROP CONSTRAINT "FK_dcee1201c8d131bfdffc08e26f0"
        `);
        await queryRunner.query(`
            ALTER TABLE "changes" DROP CONSTRAINT "FK_33473358bd5f3b071af1a731dfe"
        `);
        await queryRunner.query(`
            ALTER TABLE "changes" DROP CONSTRAINT "FK_c7c0f041d17111c364cf187b79b"
        `);
        await queryRunner.query(`
            ALTER TABLE "changes" DROP CONSTRAINT "FK_87979cdf87131fe8c4f8009fc75"
        `);
        await queryRunner.query(`
            ALTER TABLE "changes" DROP CONSTRAINT "FK_bfe713a554479f5ab5572420c79"
        `);
        await queryRunner.query(`
            ALTER TABLE "units" DROP CONSTRAINT "FK_9a931335a15b31a4a102c5645d6"
        `);
        await queryRunner.query(`
            ALTER TABLE "translations" DROP CONSTRAINT "FK_d136efa9a893831d83db4e5a597"
        `);
        await queryRunner.query(`
            ALTER TABLE "translations" DROP CONSTRAINT "FK_914fcf1be64606618e76b06e821"
        `);
        await queryRunner.query(`
            ALTER TABLE "translations" DROP CONSTRAINT "FK_73785374778b9b6330bd6885271"
        `);
        await queryRunner.query(`
            ALTER TABLE "components" DROP CONSTRAINT "FK_1ed56d12680046f12f526932eaa"
        `);
        await queryRunner.query(`
            ALTER TABLE "components" DROP CONSTRAINT "FK_df139f4ce5006823bf294111882"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_076142d7943348f5630667a236"
        `);
        await queryRunner.query(`
            DROP TABLE "subscriptions"
        `);
        await queryRunner.query(`
            DROP TABLE "api_tokens"
        `);
        await queryRunner.query(`
            DROP TABLE "tasks"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_09180fa90782431d5b2c58e9be"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_545bcab5890b3ac3d823c6395a"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_a24a14545ee10243271c99142b"
        `);
        await queryRunner.query(`
            DROP TABLE "changes"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_8457d48fa697bedfab55c9bdcf"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_d5401d3c44b22475aec8f20ab4"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_cff0ae7d92517c2589b57ec6df"
        `);
        await queryRunner.query(`
            DROP TABLE "units"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_34791d9de0e31707a03e8fdc72"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_914fcf1be64606618e76b06e82"
        `);
        await queryRunner.query(`
            DROP TABLE "translations"
        `);
        await queryRunner.query(`
            DROP TABLE "users"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_720b169b5905c69118dfa3bfd5"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_b95924818f3d95284ffc78238a"
        `);
        await queryRunner.query(`
            DROP TABLE "components"
        `);
        await queryRunner.query(`
            DROP TABLE "projects"
        `);
        await queryRunner.query(`
            DROP TABLE "languages"
        `);
    }

}
