import { LanguageSelection, ProjectSelection } from './access.entities';

/** Every permission codename Glossa knows (weblate-api.md §2.5); roles may only hold these. */
export const PERMISSIONS: readonly string[] = [
  'project.add',
  'project.edit',
  // "Manage project access" in Weblate: changing a project's access_control (weblate/auth/data.py).
  'project.permissions',
  'component.edit',
  'component.lock',
  'translation.add',
  'translation.add_more',
  'translation.delete',
  'translation.auto',
  'translation.download',
  'unit.add',
  'unit.delete',
  'unit.edit',
  'unit.review',
  'unit.check',
  'source.edit',
  'upload.perform',
  'upload.overwrite',
  'upload.authorship',
  'suggestion.add',
  'suggestion.accept',
  'suggestion.delete',
  'suggestion.vote',
  'comment.add',
  'screenshot.add',
  'screenshot.edit',
  'screenshot.delete',
  'vcs.access',
  'vcs.view',
  'vcs.commit',
  'vcs.push',
  'vcs.reset',
  'vcs.update',
  'memory.delete',
  'memory.manage',
  'user.edit',
  'user.view',
  'group.edit',
  'group.view',
  'role.edit',
  'role.view',
  'language.edit',
];

/**
 * Permissions only ever checked without an object (site-wide administration). A team grants them whatever
 * projects it selects; every other permission is granted only on what the team selects. Administration,
 * the project-level role, holds everything else (weblate/auth/data.py).
 */
export const GLOBAL_PERMISSIONS: readonly string[] = ['project.add', 'user.edit', 'user.view', 'group.edit', 'group.view', 'role.edit', 'role.view', 'language.edit', 'memory.manage'];

const TRANSLATE = ['comment.add', 'suggestion.accept', 'suggestion.add', 'suggestion.vote', 'unit.check', 'unit.edit', 'upload.overwrite', 'upload.perform', 'translation.download', 'vcs.access', 'vcs.view'];

/**
 * Built-in roles after weblate/auth/data.py. "Power user" deliberately lacks `translation.add`: the
 * reference's consequence for ordinary users on public projects (weblate-api.md §2.5, last paragraph)
 * is a 403 when they create translations.
 */
export const BUILTIN_ROLES: ReadonlyArray<{ name: string; permissions: string[] }> = [
  { name: 'Add suggestion', permissions: ['suggestion.add'] },
  { name: 'Access repository', permissions: ['vcs.access', 'vcs.view'] },
  { name: 'Power user', permissions: [...TRANSLATE] },
  { name: 'Translate', permissions: [...TRANSLATE] },
  { name: 'Review strings', permissions: [...TRANSLATE, 'unit.review', 'suggestion.delete'] },
  { name: 'Manage languages', permissions: ['translation.add', 'translation.add_more', 'translation.delete'] },
  { name: 'Edit source', permissions: ['source.edit', 'unit.add', 'unit.delete', 'unit.edit', 'unit.check'] },
  { name: 'Manage repository', permissions: ['vcs.access', 'vcs.commit', 'vcs.push', 'vcs.reset', 'vcs.update', 'vcs.view', 'component.lock'] },
  { name: 'Add new projects', permissions: ['project.add'] },
  {
    name: 'Administration',
    permissions: PERMISSIONS.filter((code) => !GLOBAL_PERMISSIONS.includes(code)),
  },
];

export interface BuiltinTeam {
  name: string;
  roles: string[];
  projectSelection: ProjectSelection;
  languageSelection: LanguageSelection;
  implicitFor: 'anonymous' | 'authenticated' | null;
}

/** Built-in teams (weblate-api.md §2.5); Guests and Viewers apply to anonymous callers, Users and Viewers' rights to everyone signed in. */
export const BUILTIN_TEAMS: readonly BuiltinTeam[] = [
  { name: 'Guests', roles: ['Add suggestion', 'Access repository'], projectSelection: ProjectSelection.AllPublic, languageSelection: LanguageSelection.All, implicitFor: 'anonymous' },
  { name: 'Viewers', roles: [], projectSelection: ProjectSelection.AllProtected, languageSelection: LanguageSelection.All, implicitFor: null },
  { name: 'Users', roles: ['Power user'], projectSelection: ProjectSelection.AllPublic, languageSelection: LanguageSelection.All, implicitFor: 'authenticated' },
  { name: 'Reviewers', roles: ['Review strings'], projectSelection: ProjectSelection.All, languageSelection: LanguageSelection.All, implicitFor: null },
  { name: 'Managers', roles: ['Administration'], projectSelection: ProjectSelection.All, languageSelection: LanguageSelection.All, implicitFor: null },
  { name: 'Project creators', roles: ['Add new projects'], projectSelection: ProjectSelection.Manual, languageSelection: LanguageSelection.All, implicitFor: null },
];
