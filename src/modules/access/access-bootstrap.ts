import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ANONYMOUS_USERNAME, BUILTIN_ROLES, BUILTIN_TEAMS } from './builtin-access';

/**
 * Creates Weblate 4.18's built-in roles and teams (builtin-access.ts) when missing, as Weblate re-creates
 * them on migrate. Idempotent and safe for several processes starting at once (ON CONFLICT on the unique
 * names); existing rows are never overwritten, so an admin's changes to built-in roles survive restarts
 * (the WeblateBuiltinRoles migration brought databases created before in line once).
 */
@Injectable()
export class AccessBootstrap implements OnApplicationBootstrap {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      for (const role of BUILTIN_ROLES) {
        await manager.query(`INSERT INTO roles (name, permissions) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [role.name, role.permissions]);
      }
      for (const team of BUILTIN_TEAMS) {
        const inserted: Array<{ id: number }> = await manager.query(
          `INSERT INTO groups (name, project_selection, language_selection, internal, implicit_for, auto_assign)
           VALUES ($1, $2, $3, TRUE, $4, $5) ON CONFLICT (name) DO NOTHING RETURNING id`,
          [team.name, team.projectSelection, team.languageSelection, team.implicitFor, team.autoAssign],
        );
        if (inserted.length === 0) continue;
        // Users created before the team existed (the ADMIN_TOKEN administrator on a new database) join it
        // now; later ones join through the user insert trigger.
        if (team.autoAssign) {
          await manager.query(`INSERT INTO group_members (group_id, user_id) SELECT $1, id FROM users WHERE username <> $2 ON CONFLICT DO NOTHING`, [inserted[0].id, ANONYMOUS_USERNAME]);
        }
        if (team.implicitFor === 'anonymous') {
          await manager.query(`INSERT INTO group_members (group_id, user_id) SELECT $1, id FROM users WHERE username = $2 ON CONFLICT DO NOTHING`, [inserted[0].id, ANONYMOUS_USERNAME]);
        }
        if (team.roles.length === 0) continue;
        await manager.query(
          `INSERT INTO group_roles (group_id, role_id) SELECT $1, id FROM roles WHERE name = ANY($2) ON CONFLICT DO NOTHING`,
          [inserted[0].id, team.roles],
        );
      }
    });
  }
}
