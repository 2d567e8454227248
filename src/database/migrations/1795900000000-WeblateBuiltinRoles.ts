import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Data only (issue 12 item 3): the built-in roles and teams of databases created before become Weblate
 * 4.18's (weblate/auth/data.py at 4.18; src/modules/access/builtin-access.ts holds the same table for new
 * databases, which AccessBootstrap fills at start-up).
 *
 * - The fourteen built-in roles get Weblate's exact permission sets; missing ones are created. Weblate keeps
 *   its built-in roles in sync with their definition on every upgrade (its migrate step), overwriting
 *   local edits; Glossa does the same once, here.
 * - "Add new projects" and the "Project creators" team are not Weblate 4.18's (they came with 5.1): the team
 *   is dropped when nobody is in it, otherwise it stays as an ordinary team an administrator may delete;
 *   the role is dropped when no team holds it any more, otherwise it stays as an ordinary role.
 *
 * The sets are written out here, not imported, so that this migration keeps meaning what it meant when it
 * was written. Running it twice changes nothing more.
 */
const TRANSLATE = [
  'comment.add', 'suggestion.accept', 'suggestion.add', 'suggestion.vote', 'unit.check', 'unit.edit',
  'translation.download', 'upload.overwrite', 'upload.perform', 'machinery.view',
];
const ADMINISTRATION = [
  'billing.view', 'change.download', 'comment.add', 'comment.delete', 'comment.resolve', 'component.edit', 'component.lock',
  'glossary.add', 'glossary.terminology', 'glossary.edit', 'glossary.delete', 'glossary.upload', 'machinery.view',
  'memory.edit', 'memory.delete', 'project.edit', 'project.permissions', 'reports.view', 'screenshot.add', 'screenshot.edit',
  'screenshot.delete', 'source.edit', 'unit.add', 'unit.delete', 'unit.check', 'unit.edit', 'unit.review', 'unit.override',
  'unit.template', 'suggestion.accept', 'suggestion.add', 'suggestion.delete', 'suggestion.vote', 'translation.add',
  'translation.auto', 'translation.delete', 'translation.download', 'translation.add_more', 'upload.authorship',
  'upload.overwrite', 'upload.perform', 'vcs.access', 'vcs.commit', 'vcs.push', 'vcs.reset', 'vcs.view', 'vcs.update',
];
/** Exported for builtin-access.spec.ts, which keeps the start-up definition equal to this one. */
export const ROLES_4_18: ReadonlyArray<[string, string[]]> = [
  ['Add suggestion', ['suggestion.add']],
  ['Access repository', ['translation.download', 'vcs.access', 'vcs.view']],
  ['Power user', [...TRANSLATE, 'translation.add', 'unit.template', 'suggestion.delete', 'vcs.access', 'vcs.view', 'glossary.add', 'glossary.edit', 'glossary.delete', 'glossary.upload']],
  ['Translate', [...TRANSLATE]],
  ['Edit source', [...TRANSLATE, 'unit.template', 'source.edit']],
  ['Manage languages', ['translation.add', 'translation.delete', 'translation.download', 'translation.add_more']],
  ['Automatic translation', ['translation.auto']],
  ['Manage glossary', ['glossary.add', 'glossary.terminology', 'glossary.edit', 'glossary.delete', 'glossary.upload']],
  ['Manage translation memory', ['memory.edit', 'memory.delete']],
  ['Manage screenshots', ['screenshot.add', 'screenshot.edit', 'screenshot.delete']],
  ['Review strings', [...TRANSLATE, 'unit.review', 'unit.override', 'comment.resolve']],
  ['Manage repository', ['vcs.access', 'vcs.commit', 'vcs.push', 'vcs.reset', 'vcs.view', 'vcs.update', 'component.lock']],
  ['Administration', ADMINISTRATION],
  ['Billing', ['billing.view']],
];

/** Glossa's sets before this migration, for `down`. */
const OLD_TRANSLATE = [
  'comment.add', 'suggestion.accept', 'suggestion.add', 'suggestion.vote', 'unit.check', 'unit.edit', 'upload.overwrite',
  'upload.perform', 'translation.download', 'vcs.access', 'vcs.view',
];
const OLD_ROLES: Array<[string, string[]]> = [
  ['Add suggestion', ['suggestion.add']],
  ['Access repository', ['vcs.access', 'vcs.view']],
  ['Power user', [...OLD_TRANSLATE]],
  ['Translate', [...OLD_TRANSLATE]],
  ['Review strings', [...OLD_TRANSLATE, 'unit.review', 'suggestion.delete']],
  ['Manage languages', ['translation.add', 'translation.add_more', 'translation.delete']],
  ['Edit source', ['source.edit', 'unit.add', 'unit.delete', 'unit.edit', 'unit.check']],
  ['Manage repository', ['vcs.access', 'vcs.commit', 'vcs.push', 'vcs.reset', 'vcs.update', 'vcs.view', 'component.lock']],
  ['Administration', [
    'project.edit', 'project.permissions', 'component.edit', 'component.lock', 'translation.add', 'translation.add_more',
    'translation.delete', 'translation.auto', 'translation.download', 'unit.add', 'unit.delete', 'unit.edit', 'unit.review',
    'unit.check', 'source.edit', 'upload.perform', 'upload.overwrite', 'upload.authorship', 'suggestion.add',
    'suggestion.accept', 'suggestion.delete', 'suggestion.vote', 'comment.add', 'screenshot.add', 'screenshot.edit',
    'screenshot.delete', 'vcs.access', 'vcs.view', 'vcs.commit', 'vcs.push', 'vcs.reset', 'vcs.update', 'memory.delete',
  ]],
];

export class WeblateBuiltinRoles1795900000000 implements MigrationInterface {
  name = 'WeblateBuiltinRoles1795900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, permissions] of ROLES_4_18) {
      await queryRunner.query(
        `INSERT INTO "roles" ("name", "permissions") VALUES ($1, $2)
         ON CONFLICT ("name") DO UPDATE SET "permissions" = EXCLUDED."permissions"`,
        [name, [...new Set(permissions)]],
      );
    }
    // "Project creators" (Weblate 5.1+): gone when empty, else an ordinary team.
    await queryRunner.query(
      `DELETE FROM "groups" g WHERE g."name" = 'Project creators' AND g."internal"
          AND NOT EXISTS (SELECT 1 FROM "group_members" m WHERE m."group_id" = g."id")`,
    );
    await queryRunner.query(`UPDATE "groups" SET "internal" = FALSE WHERE "name" = 'Project creators' AND "internal"`);
    await queryRunner.query(
      `DELETE FROM "roles" r WHERE r."name" = 'Add new projects'
          AND NOT EXISTS (SELECT 1 FROM "group_roles" gr WHERE gr."role_id" = r."id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name, permissions] of OLD_ROLES) {
      await queryRunner.query(`UPDATE "roles" SET "permissions" = $2 WHERE "name" = $1`, [name, permissions]);
    }
    for (const name of ['Automatic translation', 'Manage glossary', 'Manage translation memory', 'Manage screenshots', 'Billing']) {
      await queryRunner.query(
        `DELETE FROM "roles" r WHERE r."name" = $1 AND NOT EXISTS (SELECT 1 FROM "group_roles" gr WHERE gr."role_id" = r."id")`,
        [name],
      );
    }
    await queryRunner.query(`INSERT INTO "roles" ("name", "permissions") VALUES ('Add new projects', '{project.add}') ON CONFLICT DO NOTHING`);
    await queryRunner.query(
      `INSERT INTO "groups" ("name", "project_selection", "language_selection", "internal", "implicit_for", "auto_assign")
       VALUES ('Project creators', 0, 1, TRUE, NULL, FALSE)
       ON CONFLICT ("name") DO UPDATE SET "internal" = TRUE`,
    );
    await queryRunner.query(
      `INSERT INTO "group_roles" ("group_id", "role_id")
       SELECT g."id", r."id" FROM "groups" g, "roles" r WHERE g."name" = 'Project creators' AND r."name" = 'Add new projects'
       ON CONFLICT DO NOTHING`,
    );
  }
}
