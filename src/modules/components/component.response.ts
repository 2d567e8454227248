import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';
import { pathOf } from '../../common/links/link-builder';
import { LanguageResponse, toLanguageResponse } from '../languages/language.response';
import { ProjectResponse, toProjectResponse } from '../projects/project.response';
import type { Component } from './component.entity';
import { redactRepositoryUrl } from '../../vcs/repository-url-policy';
import { licenseUrl } from './license-url';

/**
 * A component on the wire, fields in the spec's order (api-spec.md "Component"). `project` is left out of
 * a project's component list, as Weblate does (weblate-api.md §5.6).
 */
export class ComponentResponse {
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty() id: number;
  @ApiProperty({ type: LanguageResponse }) source_language: LanguageResponse;
  @ApiPropertyOptional({ type: ProjectResponse, description: 'Absent in /api/projects/<p>/components/' }) project?: ProjectResponse;
  @ApiProperty() vcs: string;
  @ApiProperty() repo: string;
  @ApiProperty() push: string;
  @ApiProperty() git_export: string;
  @ApiProperty() branch: string;
  @ApiProperty() push_branch: string;
  @ApiProperty() filemask: string;
  @ApiProperty() screenshot_filemask: string;
  @ApiProperty() template: string;
  @ApiProperty() edit_template: boolean;
  @ApiProperty() intermediate: string;
  @ApiProperty() new_base: string;
  @ApiProperty() file_format: string;
  @ApiProperty() license: string;
  @ApiProperty() license_url: string;
  @ApiProperty() agreement: string;
  @ApiProperty() web_url: string;
  @ApiProperty() url: string;
  @ApiProperty() repository_url: string;
  @ApiProperty() translations_url: string;
  @ApiProperty() statistics_url: string;
  @ApiProperty() lock_url: string;
  @ApiProperty() links_url: string;
  @ApiProperty() changes_list_url: string;
  @ApiProperty({ type: String, nullable: true }) task_url: string | null;
  @ApiProperty() new_lang: string;
  @ApiProperty() language_code_style: string;
  @ApiProperty() check_flags: string;
  @ApiProperty() priority: number;
  @ApiProperty({ type: [String] }) enforced_checks: string[];
  @ApiProperty() restricted: boolean;
  @ApiProperty() repoweb: string;
  @ApiProperty() report_source_bugs: string;
  @ApiProperty() merge_style: string;
  @ApiProperty() commit_message: string;
  @ApiProperty() add_message: string;
  @ApiProperty() delete_message: string;
  @ApiProperty() merge_message: string;
  @ApiProperty() addon_message: string;
  @ApiProperty() pull_message: string;
  @ApiProperty() allow_translation_propagation: boolean;
  @ApiProperty() manage_units: boolean;
  @ApiProperty() enable_suggestions: boolean;
  @ApiProperty() suggestion_voting: boolean;
  @ApiProperty() suggestion_autoaccept: number;
  @ApiProperty() push_on_commit: boolean;
  @ApiProperty() commit_pending_age: number;
  @ApiProperty() auto_lock_error: boolean;
  @ApiProperty() language_regex: string;
  @ApiProperty() variant_regex: string;
  @ApiProperty({ type: [String], description: 'Installed add-ons (/api/addons/<id>/)' }) addons: string[];
  @ApiProperty() is_glossary: boolean;
  @ApiProperty() glossary_color: string;
}

export const componentApiPath = (projectSlug: string, componentSlug: string): string =>
  pathOf('api', 'components', projectSlug, componentSlug);

/** `component` must have `project` and `sourceLanguage` loaded (one joined query, no N+1). */
export function toComponentResponse(component: Component, links: LinkBuilder, options: { withProject?: boolean } = {}): ComponentResponse {
  const project = component.project;
  const base = componentApiPath(project.slug, component.slug);
  return {
    name: component.name,
    slug: component.slug,
    id: component.id,
    source_language: toLanguageResponse(component.sourceLanguage, links),
    project: options.withProject === false ? undefined : toProjectResponse(project, links),
    vcs: component.vcs,
    // Credentials in repository URLs are never shown (weblate-api.md §6.3 "credentials stripped on output").
    repo: redactRepositoryUrl(component.repo),
    push: redactRepositoryUrl(component.push),
    git_export: redactRepositoryUrl(component.gitExport),
    branch: component.branch,
    push_branch: component.pushBranch,
    filemask: component.filemask,
    screenshot_filemask: component.screenshotFilemask,
    template: component.template,
    edit_template: component.editTemplate,
    intermediate: component.intermediate,
    new_base: component.newBase,
    file_format: component.fileFormat,
    license: component.license,
    license_url: licenseUrl(component.license),
    agreement: component.agreement,
    web_url: links.web(pathOf('projects', project.slug, component.slug)),
    url: links.api(base),
    repository_url: links.api(`${base}repository/`),
    translations_url: links.api(`${base}translations/`),
    statistics_url: links.api(`${base}statistics/`),
    lock_url: links.api(`${base}lock/`),
    links_url: links.api(`${base}links/`),
    changes_list_url: links.api(`${base}changes/`),
    task_url: component.taskId ? links.api(pathOf('api', 'tasks', component.taskId)) : null,
    new_lang: component.newLang,
    language_code_style: component.languageCodeStyle,
    check_flags: component.checkFlags,
    priority: component.priority,
    enforced_checks: component.enforcedChecks,
    restricted: component.restricted,
    repoweb: redactRepositoryUrl(component.repoweb),
    report_source_bugs: component.reportSourceBugs,
    merge_style: component.mergeStyle,
    commit_message: component.commitMessage,
    add_message: component.addMessage,
    delete_message: component.deleteMessage,
    merge_message: component.mergeMessage,
    addon_message: component.addonMessage,
    pull_message: component.pullMessage,
    allow_translation_propagation: component.allowTranslationPropagation,
    manage_units: component.manageUnits,
    enable_suggestions: component.enableSuggestions,
    suggestion_voting: component.suggestionVoting,
    suggestion_autoaccept: component.suggestionAutoaccept,
    push_on_commit: component.pushOnCommit,
    commit_pending_age: component.commitPendingAge,
    auto_lock_error: component.autoLockError,
    language_regex: component.languageRegex,
    variant_regex: component.variantRegex,
    addons: (component.addonIds ?? []).map((id) => links.api(pathOf('api', 'addons', id))),
    is_glossary: component.isGlossary,
    glossary_color: component.glossaryColor,
  };
}
