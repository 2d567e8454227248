import { ApiProperty } from '@nestjs/swagger';
import type { LinkBuilder } from '../../common/links/link-builder';
import { pathOf } from '../../common/links/link-builder';
import type { Project } from './project.entity';

/** A project on the wire, fields in the spec's order (api-spec.md "Project"). */
export class ProjectResponse {
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty() id: number;
  @ApiProperty({ description: 'Project website' }) web: string;
  @ApiProperty() web_url: string;
  @ApiProperty() url: string;
  @ApiProperty() components_list_url: string;
  @ApiProperty() repository_url: string;
  @ApiProperty() statistics_url: string;
  @ApiProperty() changes_list_url: string;
  @ApiProperty() languages_url: string;
  @ApiProperty() translation_review: boolean;
  @ApiProperty() source_review: boolean;
  @ApiProperty() set_language_team: boolean;
  @ApiProperty() instructions: string;
  @ApiProperty() enable_hooks: boolean;
  @ApiProperty() language_aliases: string;
}

export const projectApiPath = (slug: string): string => pathOf('api', 'projects', slug);

export function toProjectResponse(project: Project, links: LinkBuilder): ProjectResponse {
  const base = projectApiPath(project.slug);
  return {
    name: project.name,
    slug: project.slug,
    id: project.id,
    web: project.web,
    web_url: links.web(pathOf('projects', project.slug)),
    url: links.api(base),
    components_list_url: links.api(`${base}components/`),
    repository_url: links.api(`${base}repository/`),
    statistics_url: links.api(`${base}statistics/`),
    changes_list_url: links.api(`${base}changes/`),
    languages_url: links.api(`${base}languages/`),
    translation_review: project.translationReview,
    source_review: project.sourceReview,
    set_language_team: project.setLanguageTeam,
    instructions: project.instructions,
    enable_hooks: project.enableHooks,
    language_aliases: project.languageAliases,
  };
}
