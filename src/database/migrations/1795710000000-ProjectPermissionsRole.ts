import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Data only: the built-in "Administration" role gains `project.permissions` (Weblate's "Manage project
 * access"), which changing a project's access_control now needs (issue 10 item 10). New databases get it
 * from the role's definition at start-up (src/modules/access/builtin-access.ts); databases created before
 * need it added, as Weblate's own migrations add new permissions to its built-in roles. Only a role still
 * named "Administration" that holds `project.edit` is touched, once.
 */
export class ProjectPermissionsRole1795710000000 implements MigrationInterface {
  name = 'ProjectPermissionsRole1795710000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "roles" SET "permissions" = array_append("permissions", 'project.permissions')
        WHERE "name" = 'Administration' AND 'project.edit' = ANY("permissions") AND NOT 'project.permissions' = ANY("permissions")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "roles" SET "permissions" = array_remove("permissions", 'project.permissions') WHERE "name" = 'Administration'`);
  }
}
