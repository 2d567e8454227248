import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Component } from '../modules/components/component.entity';
import type { CommitInfo } from '../vcs/commit-info';
import { GitCommandError } from '../vcs/git-runner';
import { recordChanges } from './change-log';
import { withComponentLock } from './component-lock';
import { ComponentScanner, type ScannableComponent, type ScanResult } from './component-scanner';
import type { SyncProgressListener } from './sync-progress';
import { componentContext } from './commit-context';
import { DEFAULT_MESSAGE_TEMPLATES } from './component-defaults';
import { MessageTemplateError, renderMessageTemplate } from './message-template';
import { ACTION_FAILED_MERGE, ACTION_FAILED_REBASE, ACTION_MERGE, ACTION_REBASE } from './unit-sync-plan';
import { WorkingCopyService, type ComponentRepositorySettings } from './working-copy.service';

// The operations that move data between a component's repository and the database: the first import
// (clone + scan), pulling upstream changes, and the repository status. One component is worked on by one
// operation at a time in this process; processes sharing a database get different jobs from the queue.

export class ComponentNotFoundError extends Error {
  override readonly name = 'ComponentNotFoundError';

  constructor(readonly componentId: number) {
    super(`Component ${componentId} does not exist.`);
  }
}

export interface ImportOptions {
  /** Allow a local repository path although ALLOW_LOCAL_REPOSITORIES is off (the server's own demo). */
  allowLocal?: boolean;
  /** Re-read files whose revision did not change. */
  force?: boolean;
  onProgress?: SyncProgressListener;
}

export interface ImportResult extends ScanResult {
  /** The branch imported (the remote's default branch when the component named none). */
  branch: string;
  cloned: boolean;
}

/** Response of `POST …/repository/` (weblate-api.md §10.5): `detail` carries the messages, when there are any. */
export interface RepositoryOperationResult {
  result: boolean;
  detail?: string;
}

/** GET …/repository/ of a component (weblate-api.md §6.10, 4.x), without `url`, which the controller adds. */
export interface ComponentRepositoryStatus {
  needs_commit: boolean;
  needs_merge: boolean;
  needs_push: boolean;
  remote_commit: CommitInfo | null;
  status: string;
  merge_failure: string | null;
}

const NOT_CLONED = Symbol('not cloned');

@Injectable()
export class ComponentImportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly workingCopies: WorkingCopyService,
    private readonly scanner: ComponentScanner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Clones the repository (unless already cloned) and reads every translation file into the database. */
  importComponent(componentId: number, options: ImportOptions = {}): Promise<ImportResult> {
    return this.exclusive(componentId, async () => {
      const component = await this.load(componentId);
      const opened = await this.workingCopies.ensure(this.settings(component), options.allowLocal);
      if (component.branch === '') {
        // Weblate stores the remote's default branch when none was given.
        await this.dataSource.query('UPDATE components SET branch = $2 WHERE id = $1', [componentId, opened.branch]);
      }
      const log = opened.cloned ? [`Cloned ${opened.branch} into the working copy`] : [];
      await options.onProgress?.(10, log);
      const scan = await this.scanner.scan(component, opened.repository, {
        force: options.force,
        onProgress: options.onProgress,
        progressFrom: 10,
      });
      return { ...scan, branch: opened.branch, cloned: opened.cloned };
    });
  }

  /** Re-reads the files of an already cloned component, without touching the remote. */
  rescanComponent(componentId: number, options: Omit<ImportOptions, 'allowLocal'> = {}): Promise<ScanResult> {
    return this.exclusive(componentId, async () => {
      const component = await this.load(componentId);
      const repository = await this.workingCopies.open(this.settings(component));
      if (!repository) throw new Error('The component has no working copy yet; import it first.');
      return this.scanner.scan(component, repository, options);
    });
  }

  /**
   * `pull`: fetch, merge upstream, rescan the files that changed. A failed fetch or merge is reported in
   * the result (and a failed merge recorded as 22), not thrown, as Weblate's API does.
   */
  async pullComponent(componentId: number): Promise<RepositoryOperationResult> {
    const outcome = await this.exclusive(componentId, async (): Promise<RepositoryOperationResult | typeof NOT_CLONED> => {
      const component = await this.load(componentId);
      const repository = await this.workingCopies.open(this.settings(component));
      if (!repository) return NOT_CLONED;
      try {
        await repository.fetch();
      } catch (error) {
        if (error instanceof GitCommandError) return { result: false, detail: error.message };
        throw error;
      }
      const { behind } = await repository.aheadBehind();
      if (behind === 0) return { result: true };
      // Weblate's update_branch: merge_style "rebase" replays the local commits on upstream (21, failure 23);
      // "merge" and "merge_noff" make a merge commit with the rendered merge_message (20, failure 22).
      const rebase = component.mergeStyle === 'rebase';
      const outcome = rebase
        ? await repository.rebaseUpstream()
        : await repository.mergeUpstream(this.mergeMessage(component), { noFastForward: component.mergeStyle === 'merge_noff' });
      const scope = { projectId: component.projectId, componentId, translationId: null, languageId: null };
      if (!outcome.merged) {
        const detail = outcome.conflict ?? (rebase ? 'Rebase failed.' : 'Merge failed.');
        const action = rebase ? ACTION_FAILED_REBASE : ACTION_FAILED_MERGE;
        await recordChanges(this.dataSource.manager, scope, [{ action, unitId: null, target: detail, old: '' }]);
        return { result: false, detail };
      }
      await recordChanges(this.dataSource.manager, scope, [{ action: rebase ? ACTION_REBASE : ACTION_MERGE, unitId: null, target: '', old: '' }]);
      await this.scanner.scan(component, repository);
      return { result: true };
    });
    if (outcome !== NOT_CLONED) return outcome;
    // Never cloned (the import task failed or has not run yet): pulling means importing.
    await this.importComponent(componentId);
    return { result: true };
  }

  async repositoryStatus(componentId: number): Promise<ComponentRepositoryStatus> {
    const component = await this.load(componentId);
    const mergeFailure = await this.lastMergeFailure(componentId);
    const repository = await this.workingCopies.open(this.settings(component));
    if (!repository) {
      return { needs_commit: false, needs_merge: false, needs_push: false, remote_commit: null, status: '', merge_failure: mergeFailure };
    }
    const [{ pending }] = await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM units u JOIN translations t ON t.id = u.translation_id
                       WHERE t.component_id = $1 AND u.pending) AS pending`,
      [componentId],
    );
    const { ahead, behind } = await repository.aheadBehind();
    return {
      needs_commit: pending || (await repository.needsCommit()),
      needs_merge: behind > 0,
      needs_push: ahead > 0,
      remote_commit: await repository.lastRemoteCommit().catch(() => null),
      status: await repository.status(),
      merge_failure: mergeFailure,
    };
  }

  /** Text of the last failed merge, unless a merge succeeded since (Weblate's merge failure alert). */
  private async lastMergeFailure(componentId: number): Promise<string | null> {
    const rows: Array<{ action: number; target: string }> = await this.dataSource.query(
      `SELECT action, target FROM changes WHERE component_id = $1 AND action IN (20, 21, 22, 23)
        ORDER BY id DESC LIMIT 1`,
      [componentId],
    );
    return rows.length > 0 && (rows[0].action === 22 || rows[0].action === 23) ? rows[0].target : null;
  }

  /**
   * The component's merge_message rendered with the component variables (site_title is SITE_TITLE), as
   * Weblate renders it for the merge commit; a template that cannot be rendered falls back to Weblate's default.
   */
  private mergeMessage(component: ScannableComponent): string {
    const names = { projectName: component.project.name, projectSlug: component.project.slug, name: component.name, slug: component.slug, branch: component.branch };
    const context = componentContext(names, this.config);
    try {
      return renderMessageTemplate(component.mergeMessage, context);
    } catch (error) {
      if (!(error instanceof MessageTemplateError)) throw error;
      return renderMessageTemplate(DEFAULT_MESSAGE_TEMPLATES.mergeMessage, context);
    }
  }

  private async load(componentId: number): Promise<ScannableComponent> {
    const component = await this.dataSource.getRepository(Component).findOne({
      where: { id: componentId },
      relations: { project: true, sourceLanguage: true },
    });
    if (!component) throw new ComponentNotFoundError(componentId);
    return component as ScannableComponent;
  }

  private settings(component: ScannableComponent): ComponentRepositorySettings {
    return {
      projectSlug: component.project.slug,
      componentSlug: component.slug,
      repo: component.repo,
      push: component.push,
      branch: component.branch,
    };
  }

  private exclusive<T>(componentId: number, work: () => Promise<T>): Promise<T> {
    return withComponentLock(componentId, work);
  }
}
