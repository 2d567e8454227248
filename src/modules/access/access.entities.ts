import { Column, Entity, JoinColumn, JoinTable, ManyToMany, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
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
 * A team (Weblate "group"). Built-in teams are created at start-up (access-bootstrap.ts). A team whose
 * `implicitFor` is `anonymous` (Guests) applies to every anonymous request, Weblate's `anonymous` user
 * being its member; "Users" is auto-assigned: every user is a real member (`autoAssign`).
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

  /**
   * Every new user becomes a member (Weblate's AutoGroup for the built-in "Users" team): a real membership,
   * so removing a user from the team takes its rights away. Added by a database trigger on user insert
   * (migration DrfFidelity), whatever path creates the user (API, CLI, ADMIN_TOKEN bootstrap).
   */
  @Column({ default: false })
  autoAssign: boolean;

  /** The project a team belongs to (Weblate 5.x+ `defining_project`); the team goes with the project. */
  @ManyToOne(() => Project, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'defining_project_id' })
  definingProject: Project | null;

  @Column({ type: 'int', nullable: true })
  definingProjectId: number | null;

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
