import type { EntityManager } from 'typeorm';
import { pathOf } from '../common/links/link-builder';
import { translationPercent } from '../common/stats/percent';
import type { GitIdentity } from '../vcs/git-identity';
import { assertGitIdentity, DEFAULT_COMMITTER } from '../vcs/git-identity';
import { PythonFloat } from './message-template';

// The variables Weblate renders commit, add and delete messages with (languages-formats-hashing.md §4.2),
// and the git author of a commit: the translator (Weblate's `User.get_author_name`).

export interface ComponentNames {
  projectName: string;
  projectSlug: string;
  name: string;
  slug: string;
  branch: string;
}

export interface SiteSettings {
  siteUrl: string;
  siteTitle: string;
}

export interface TranslationStats {
  languageCode: string;
  languageName: string;
  filename: string;
  total: number;
  translated: number;
  fuzzy: number;
  approved: number;
  totalWords: number;
  translatedWords: number;
}

export function componentContext(component: ComponentNames, site: SiteSettings): Record<string, unknown> {
  return {
    project_name: component.projectName,
    project_slug: component.projectSlug,
    component_name: component.name,
    component_slug: component.slug,
    component_remote_branch: component.branch,
    url: site.siteUrl + pathOf('projects', component.projectSlug, component.slug),
    widget_url: site.siteUrl + pathOf('widgets', component.projectSlug, '-', component.slug, 'svg-badge.svg').replace(/\/$/, ''),
    component_linked_childs: [],
    site_title: site.siteTitle,
    site_url: site.siteUrl,
  };
}

export function translationContext(component: ComponentNames, site: SiteSettings, stats: TranslationStats, author: GitIdentity): Record<string, unknown> {
  const percent = (count: number, total: number) => new PythonFloat(translationPercent(count, total, true));
  return {
    ...componentContext(component, site),
    url: site.siteUrl + pathOf('projects', component.projectSlug, component.slug, stats.languageCode),
    language_code: stats.languageCode,
    language_name: stats.languageName,
    filename: stats.filename,
    author: `${author.name} <${author.email}>`,
    stats: {
      all: stats.total,
      translated: stats.translated,
      fuzzy: stats.fuzzy,
      approved: stats.approved,
      all_words: stats.totalWords,
      translated_words: stats.translatedWords,
      translated_percent: percent(stats.translated, stats.total),
      fuzzy_percent: percent(stats.fuzzy, stats.total),
      approved_percent: percent(stats.approved, stats.total),
    },
  };
}

export async function loadTranslationStats(manager: EntityManager, translationId: number): Promise<TranslationStats> {
  const [row]: TranslationStats[] = await manager.query(
    `SELECT l.code AS "languageCode", l.name AS "languageName", t.filename, t.total, t.translated, t.fuzzy, t.approved,
            t.total_words AS "totalWords", t.translated_words AS "translatedWords"
       FROM translations t JOIN languages l ON l.id = t.language_id WHERE t.id = $1`,
    [translationId],
  );
  return row;
}

/** `Full Name <email>` of a user; anonymous (null) and unusable profiles commit as the default identity. */
export async function authorIdentity(manager: EntityManager, userId: number | null): Promise<GitIdentity> {
  if (userId === null) return DEFAULT_COMMITTER;
  const [user]: Array<{ username: string; full_name: string; email: string }> = await manager.query(
    'SELECT username, full_name, email FROM users WHERE id = $1',
    [userId],
  );
  if (!user) return DEFAULT_COMMITTER;
  const identity = { name: user.full_name.trim() || user.username, email: user.email.trim() || `${user.username}@users.noreply.glossa.invalid` };
  try {
    assertGitIdentity(identity);
    return identity;
  } catch {
    // A name git could misread (`<`, `>`, control characters) is never written into a commit header.
    return { name: user.username.replace(/[<>\u0000-\u001f\u007f]/g, '') || DEFAULT_COMMITTER.name, email: DEFAULT_COMMITTER.email };
  }
}
