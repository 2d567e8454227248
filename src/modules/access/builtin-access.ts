import { LanguageSelection, ProjectSelection } from './access.entities';

/*
 * Weblate 4.18's permission codenames and built-in roles and teams (weblate/auth/data.py at 4.18; the facts
 * only, Glossa's own code). Role names and codenames are Weblate's, so `GET /api/roles/` answers what a
 * Weblate 4.18 server answers. Glossa checks a subset of these permissions (weblate-api.md §2.5); the others
 * (glossary.*, machinery.view, comment.delete, ...) are accepted and listed so that roles copied from
 * Weblate, and Weblate's own built-in roles, have the same permission sets here.
 */

/**
 * Permissions that are checked on an object (a project, component or translation), in Weblate's order.
 * Weblate's "Administration" role holds exactly these.
 */
export const OBJECT_PERMISSIONS: readonly string[] = [
  'billing.view',
  'change.download',
  'comment.add',
  'comment.delete',
  'comment.resolve',
  'component.edit',
  'component.lock',
  'glossary.add',
  'glossary.terminology',
  'glossary.edit',
  'glossary.delete',
  'glossary.upload',
  'machinery.view',
  'memory.edit',
  'memory.delete',
  'project.edit',
  // "Manage project access": changing a project's access_control.
  'project.permissions',
  'reports.view',
  'screenshot.add',
  'screenshot.edit',
  'screenshot.delete',
  'source.edit',
  'unit.add',
  'unit.delete',
  'unit.check',
  'unit.edit',
  'unit.review',
  'unit.override',
  'unit.template',
  'suggestion.accept',
  'suggestion.add',
  'suggestion.delete',
  'suggestion.vote',
  'translation.add',
  'translation.auto',
  'translation.delete',
  'translation.download',
  'translation.add_more',
  'upload.authorship',
  'upload.overwrite',
  'upload.perform',
  'vcs.access',
  'vcs.commit',
  'vcs.push',
  'vcs.reset',
  'vcs.view',
  'vcs.update',
];

/**
 * Permissions only ever checked without an object (site-wide administration): Weblate 4.18's global
 * permissions, plus Glossa's read-only `*.view` counterparts of the admin endpoints (weblate-api.md §5.2-5.4)
 * and `memory.manage`. A team grants them whatever projects it selects. No built-in role holds them:
 * in Weblate 4.18 only superusers (or custom roles) have them.
 */
export const GLOBAL_PERMISSIONS: readonly string[] = [
  'management.use',
  'project.add',
  'language.add',
  'language.edit',
  'group.edit',
  'group.view',
  'user.edit',
  'user.view',
  'role.edit',
  'role.view',
  'announcement.edit',
  'memory.manage',
  'componentlist.edit',
];

/** Every permission codename a role may hold (`POST /api/roles/` refuses others, weblate-api.md §5.4). */
export const PERMISSIONS: readonly string[] = [...OBJECT_PERMISSIONS, ...GLOBAL_PERMISSIONS];

const withPrefix = (prefix: string, except: readonly string[] = []): string[] =>
  OBJECT_PERMISSIONS.filter((code) => code.startsWith(prefix) && !except.includes(code));

/** What every translating role holds (Weblate's TRANSLATE_PERMS). */
const TRANSLATE = [
  'comment.add',
  'suggestion.accept',
  'suggestion.add',
  'suggestion.vote',
  'unit.check',
  'unit.edit',
  'translation.download',
  'upload.overwrite',
  'upload.perform',
  'machinery.view',
];

/**
 * Weblate 4.18's fourteen built-in roles. "Add new projects" (and the "Project creators" team holding it)
 * came with Weblate 5.1, so it is not here. "Power user", what every signed-in user holds on public
 * projects through "Users", includes `translation.add`: ordinary users may add a language (weblate-api.md §2.5).
 */
export const BUILTIN_ROLES: ReadonlyArray<{ name: string; permissions: string[] }> = [
  { name: 'Add suggestion', permissions: ['suggestion.add'] },
  { name: 'Access repository', permissions: ['translation.download', 'vcs.access', 'vcs.view'] },
  {
    name: 'Power user',
    permissions: [...TRANSLATE, 'translation.add', 'unit.template', 'suggestion.delete', 'vcs.access', 'vcs.view', ...withPrefix('glossary.', ['glossary.terminology'])],
  },
  { name: 'Translate', permissions: [...TRANSLATE] },
  { name: 'Edit source', permissions: [...TRANSLATE, 'unit.template', 'source.edit'] },
  { name: 'Manage languages', permissions: withPrefix('translation.', ['translation.auto']) },
  { name: 'Automatic translation', permissions: ['translation.auto'] },
  { name: 'Manage glossary', permissions: withPrefix('glossary.') },
  { name: 'Manage translation memory', permissions: withPrefix('memory.') },
  { name: 'Manage screenshots', permissions: withPrefix('screenshot.') },
  { name: 'Review strings', permissions: [...TRANSLATE, 'unit.review', 'unit.override', 'comment.resolve'] },
  { name: 'Manage repository', permissions: [...withPrefix('vcs.'), 'component.lock'] },
  { name: 'Administration', permissions: [...OBJECT_PERMISSIONS] },
  { name: 'Billing', permissions: withPrefix('billing.') },
];

export interface BuiltinTeam {
  name: string;
  roles: string[];
  projectSelection: ProjectSelection;
  languageSelection: LanguageSelection;
  implicitFor: 'anonymous' | null;
  /** Every user is made a member (weblate-api.md §2.5: "Users", every registered user). */
  autoAssign: boolean;
}

/**
 * Weblate 4.18's built-in teams (weblate-api.md §2.5), all over every language: Guests apply to anonymous
 * callers (Weblate's `anonymous` user is their member), every user is a member of Users.
 */
export const BUILTIN_TEAMS: readonly BuiltinTeam[] = [
  { name: 'Guests', roles: ['Add suggestion', 'Access repository'], projectSelection: ProjectSelection.AllPublic, languageSelection: LanguageSelection.All, implicitFor: 'anonymous', autoAssign: false },
  { name: 'Viewers', roles: [], projectSelection: ProjectSelection.AllProtected, languageSelection: LanguageSelection.All, implicitFor: null, autoAssign: false },
  { name: 'Users', roles: ['Power user'], projectSelection: ProjectSelection.AllPublic, languageSelection: LanguageSelection.All, implicitFor: null, autoAssign: true },
  { name: 'Reviewers', roles: ['Review strings'], projectSelection: ProjectSelection.All, languageSelection: LanguageSelection.All, implicitFor: null, autoAssign: false },
  { name: 'Managers', roles: ['Administration'], projectSelection: ProjectSelection.All, languageSelection: LanguageSelection.All, implicitFor: null, autoAssign: false },
];

/**
 * Weblate's database user for unauthenticated requests (ANONYMOUS_USER_NAME): inactive, so it can never
 * authenticate, a member of Guests, and listed in /api/users/ as Weblate 4.x lists it (weblate-api.md §2.6).
 * Created by the DrfFidelity migration.
 */
export const ANONYMOUS_USERNAME = 'anonymous';
