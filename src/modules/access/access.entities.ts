import { Column, Entity, JoinTable, ManyToMany, PrimaryGeneratedColumn } from 'typeorm';
import { Component } from '../components/component.entity';
import { Language } from '../languages/language.entity';
import { Project } from '../projects/project.entity';
import { User } from '../users/user.entity';

/**
 * A role is a named set of Weblate permission codenames (weblate-api.md §2.5, §5.4). The codenames are a
 * text array: a role's permissions are always read and written as one set, and the permission check
 * tests membership with `= ANY(permissions)` inside the same SQL query (src/common/auth/access-sql.ts).
 */
@Entity('roles')
export class Role {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 200, unique: true })
  name: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  permissions: string[];
}

/** Project selection codes (weblate-api.md §5.3, weblate/auth/data.py). */
export enum ProjectSelection {
  Manual = 0,
  All = 1,
  ComponentList = 2,
  AllPublic = 3,
  AllProtected = 4,
}

/** Language selection codes: 0 manual, 1 all. */
export enum LanguageSelection {
  Manual = 0,
  All = 1,
}

/**
 * A team (Weblate "group"). Built-in teams are created at start-up (access-bootstrap.ts); `implicitFor`
 * replaces Weblate's auto-assignment of the Guests/Viewers/Users teams: a team marked `anonymous` applies
 * to every anonymous request, `authenticated` to every signed-in user, without membership rows (so users
 * created by any path, including test factories, get the same built-in rights).
 */
@Entity('groups')
export class Group {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 150, unique: true })
  name: string;

  @Column({ type: 'smallint', default: ProjectSelection.Manual })
  projectSelection: ProjectSelection;

  @Column({ type: 'smallint', default: LanguageSelection.All })
  languageSelection: LanguageSelection;

  /** Built-in teams reject changes of name and selections (weblate-api.md §5.3). */
  @Column({ default: false })
  internal: boolean;

  @Column({ type: 'varchar', length: 20, nullable: true })
  implicitFor: 'anonymous' | 'authenticated' | null;

  @ManyToMany(() => Role, { onDelete: 'CASCADE' })
  @JoinTable({ name: 'group_roles', joinColumn: { name: 'group_id' }, inverseJoinColumn: { name: 'role_id' } })
  roles: Role[];

  @ManyToMany(() => Project, { onDelete: 'CASCADE' })
  @JoinTable({ name: 'group_projects', joinColumn: { name: 'group_id' }, inverseJoinColumn: { name: 'project_id' } })
  projects: Project[];

  @ManyToMany(() => Component, { onDelete: 'CASCADE' })
  @JoinTable({ name: 'group_components', joinColumn: { name: 'group_id' }, inverseJoinColumn: { name: 'component_id' } })
  components: Component[];

  @ManyToMany(() => Language, { onDelete: 'CASCADE' })
  @JoinTable({ name: 'group_languages', joinColumn: { name: 'group_id' }, inverseJoinColumn: { name: 'language_id' } })
  languages: Language[];

  @ManyToMany(() => User, { onDelete: 'CASCADE' })
  @JoinTable({ name: 'group_members', joinColumn: { name: 'group_id' }, inverseJoinColumn: { name: 'user_id' } })
  members: User[];
}
