import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CommitInfo } from '../../vcs/commit-info';

// Repository status and operation bodies (weblate-api.md §6.10, §10.5; 4.x shapes). wlc reads every key
// listed here (wlc-client.md §3.1: ProjectRepository, Repository; §6.5).

/** The `remote_commit` object: the last commit of the upstream branch. */
export class CommitInfoResponse implements CommitInfo {
  @ApiProperty() revision: string;
  @ApiProperty() shortrevision: string;
  @ApiProperty({ description: '`Name <email>`' }) author: string;
  @ApiProperty() author_name: string;
  @ApiProperty() author_email: string;
  @ApiProperty({ description: 'ISO 8601 with the author’s UTC offset' }) authordate: string;
  @ApiProperty() commit: string;
  @ApiProperty() commit_name: string;
  @ApiProperty() commit_email: string;
  @ApiProperty() commitdate: string;
  @ApiProperty() message: string;
  @ApiProperty() summary: string;
}

/** `GET /api/projects/<p>/repository/`: the flags are true when any component of the project needs it. */
export class ProjectRepositoryResponse {
  @ApiProperty({ description: 'Changes not yet committed to the repository' }) needs_commit: boolean;
  @ApiProperty({ description: 'Upstream has commits not merged yet' }) needs_merge: boolean;
  @ApiProperty({ description: 'Local commits not pushed yet' }) needs_push: boolean;
  @ApiProperty({ description: 'API URL of this repository endpoint' }) url: string;
}

/** `GET …/repository/` of a component or translation (a translation reports its component's repository). */
export class RepositoryResponse extends ProjectRepositoryResponse {
  @ApiProperty({ type: CommitInfoResponse, nullable: true }) remote_commit: CommitInfoResponse | null;
  @ApiProperty({ description: '`git status` output' }) status: string;
  @ApiProperty({ type: String, nullable: true, description: 'Error of the last failed merge, if it is still unresolved' })
  merge_failure: string | null;
}

export const REPOSITORY_OPERATIONS = ['commit', 'pull', 'push', 'reset', 'cleanup', 'file-sync', 'file-scan'] as const;
export type RepositoryOperation = (typeof REPOSITORY_OPERATIONS)[number];

/** `POST …/repository/` body. */
export class RepositoryOperationRequestDto {
  @ApiProperty({ enum: REPOSITORY_OPERATIONS }) operation: RepositoryOperation;
}

export class RepositoryOperationResponse {
  @ApiProperty() result: boolean;
  @ApiPropertyOptional({ description: 'Messages of the operation, when there are any' }) detail?: string;
}
