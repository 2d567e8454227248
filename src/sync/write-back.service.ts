import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { pathOf } from '../common/links/link-builder';
import { FileParser } from '../formats/file-parser';
import { FormatParseError, FormatWriteError } from '../formats/format';
import { getFileFormat, usesTemplate } from '../formats/format.registry';
import type { FileFormat, StoreWriteContext } from '../formats/store';
import { recordChanges, type ChangeRecord } from '../modules/changes/change-recorder';
import { Component } from '../modules/components/component.entity';
import { gitBlobHash } from '../vcs/git-blob-hash';
import type { GitIdentity } from '../vcs/git-identity';
import { GitCommandError } from '../vcs/git-runner';
import type { GitRepository } from '../vcs/git.repository';
import { authorIdentity, loadTranslationStats, translationContext, type ComponentNames } from './commit-context';
import { withComponentLock } from './component-lock';
import type { ScannableComponent } from './component-scanner';
import { renderMessageTemplate } from './message-template';
import { loadWriteInfo, unitWrite, writeContext } from './store-changes';
import { WorkingCopyService } from './working-copy.service';

// Write-back (formats.md §2.5, languages-formats-hashing.md §5.2 `pending`; weblate-api.md §10.5): units edited
// through the API are stored with `pending = true` in the same transaction as the edit, so an acknowledged edit
// survives a crash before its commit. A commit patches each affected file of the working copy with only the
// pending units (FileFormat.write: update, or append what the file lacks), writes it, commits it with the component's rendered `commit_message` and the translator
// as git author (one commit per translation and author, as Weblate's commit_pending), and only then clears
// `pending` — for the rows whose text is still what was written, so an edit racing the commit stays pending.

export const ACTION_COMMIT = 17;
export const NOT_CLONED_DETAIL = 'The component has no working copy yet; import it first.';
export const ACTION_PUSH = 18;
export const ACTION_FAILED_PUSH = 28;

/** A file could not be read or written back (unparsable file, conflicting keys); reported, never a 500. */
export class WriteBackError extends Error {
  override readonly name = 'WriteBackError';
}

export interface OperationOutcome {
  result: boolean;
  detail?: string;
}

interface PendingUnit {
  id: string;
  translation_id: number;
  context: string;
  source: string;
  target: string;
  state: number;
  note: string;
  flags: string;
  location: string;
  filename: string;
  is_source: boolean;
  language_id: number;
  author_id: number | null;
  change_id: string | null;
}

/** A component loaded with what write-back needs. */
export type WritableComponent = ScannableComponent;

@Injectable()
export class WriteBackService {
  private readonly logger = new Logger(WriteBackService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly workingCopies: WorkingCopyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly parser: FileParser,
  ) {}

  /** Commits the pending units of a component (or of one translation), then pushes when push_on_commit says so. */
  commitPending(componentId: number, options: { translationId?: number; actorId?: number | null } = {}): Promise<OperationOutcome> {
    return this.withWorkingCopy(componentId, async (component, repository) => {
      const commits = await this.commitLocked(component, repository, options.translationId ?? null, options.actorId ?? null);
      if (commits > 0 && component.pushOnCommit && component.push !== '') {
        // Weblate pushes after committing when push_on_commit is on; a failed push keeps the commit and is
        // recorded (28), the commit itself succeeded.
        const pushed = await this.pushLocked(component, repository, options.actorId ?? null);
        if (!pushed.result) return { result: true, detail: pushed.detail };
      }
      return { result: true };
    });
  }

  /** `push` (weblate-api.md §10.5): commits what is pending, then pushes to `push`/`push_branch`. */
  push(componentId: number, actorId: number | null): Promise<OperationOutcome> {
    return this.withWorkingCopy(componentId, async (component, repository) => {
      // Weblate's message, plus the component setting that controls it (issue 15: refusals name their setting).
      if (component.push === '') return { result: false, detail: `Push is disabled for ${component.project.name}/${component.name}: it has no push URL (push).` };
      await this.commitLocked(component, repository, null, actorId);
      return this.pushLocked(component, repository, actorId);
    });
  }

  /**
   * Runs `work` with the component's working copy under the component lock. A component never cloned has
   * nothing to write: the outcome says so.
   */
  async withWorkingCopy(
    componentId: number,
    work: (component: WritableComponent, repository: GitRepository) => Promise<OperationOutcome>,
  ): Promise<OperationOutcome> {
    return withComponentLock(componentId, async () => {
      const component = await this.load(componentId);
      if (!component) return { result: false, detail: 'The component does not exist any more.' };
      const repository = await this.workingCopies.open(this.settings(component));
      if (!repository) return { result: false, detail: NOT_CLONED_DETAIL };
      return work(component, repository);
    });
  }

  /** Commits pending units (caller holds the component lock); resolves with the number of commits made. */
  async commitLocked(component: WritableComponent, repository: GitRepository, translationId: number | null, actorId: number | null): Promise<number> {
    const format = this.formatOf(component);
    const units: PendingUnit[] = await this.dataSource.query(
      `SELECT u.id, u.translation_id, u.context, u.source, u.target, u.state, u.note, u.flags, u.location, t.filename, t.is_source, t.language_id,
              ch.author_id, ch.id AS change_id
         FROM units u
         JOIN translations t ON t.id = u.translation_id
         LEFT JOIN LATERAL (SELECT c.author_id, c.id FROM changes c WHERE c.unit_id = u.id ORDER BY c.id DESC LIMIT 1) ch ON true
        WHERE t.component_id = $1 AND u.pending AND ($2::int IS NULL OR t.id = $2)
        ORDER BY t.id, u.position, u.id`,
      [component.id, translationId],
    );
    let commits = 0;
    for (const group of groupForCommits(units)) {
      if (group.units[0].filename === '') continue;
      if (await this.commitGroup(component, repository, format, group.units, group.authorId, actorId)) commits += 1;
    }
    return commits;
  }

  /** Pushes local commits (caller holds the lock). A failure is reported and recorded as 28, never thrown. */
  async pushLocked(component: WritableComponent, repository: GitRepository, actorId: number | null): Promise<OperationOutcome> {
    const { ahead } = await repository.aheadBehind();
    if (ahead === 0) return { result: true };
    const scope = { projectId: component.projectId, componentId: component.id, translationId: null, languageId: null, unitId: null, userId: actorId, authorId: actorId };
    try {
      await repository.push(component.pushBranch || repository.branch);
    } catch (error) {
      if (!(error instanceof GitCommandError)) throw error;
      const detail = error.message;
      this.logger.warn(`Push of ${component.project.slug}/${component.slug} failed: ${detail}`);
      await recordChanges(this.dataSource.manager, [{ ...scope, action: ACTION_FAILED_PUSH, target: detail }]);
      return { result: false, detail };
    }
    await recordChanges(this.dataSource.manager, [{ ...scope, action: ACTION_PUSH, target: '' }]);
    return { result: true };
  }

  /**
   * Writes one translation file and commits it as one author. The file is rebuilt from what the working copy
   * holds, so edits of other authors still pending stay out of this commit (they get their own).
   */
  private async commitGroup(
    component: WritableComponent,
    repository: GitRepository,
    format: FileFormat,
    units: PendingUnit[],
    authorId: number | null,
    actorId: number | null,
  ): Promise<boolean> {
    const { filename, translation_id: translationId, is_source: isSource, language_id: languageId } = units[0];
    let current: Buffer | null;
    try {
      current = await this.readWithinLimit(repository, filename);
    } catch (error) {
      if (error instanceof FormatParseError) throw new WriteBackError(`Could not read ${filename}: ${error.message}`, { cause: error });
      throw error;
    }
    const author = await authorIdentity(this.dataSource.manager, authorId);
    let content: Buffer;
    try {
      const context = await this.writeContextFor(component, repository, translationId, author);
      const update = units.map((unit) => unitWrite(unit, isSource, context.plural.number));
      // In the parse worker, within the file limits (issue 10, item 9): write-back parses the file too.
      // `current` is not used after this: its memory moves to the worker instead of being copied.
      content = await this.parser.write(format, current, { update }, context, { handOver: true });
    } catch (error) {
      if (error instanceof FormatParseError) throw new WriteBackError(`Could not parse ${filename}: ${error.message}`, { cause: error });
      if (error instanceof FormatWriteError) throw new WriteBackError(`Could not write ${filename}: ${error.message}`, { cause: error });
      throw error;
    }
    const stats = await loadTranslationStats(this.dataSource.manager, translationId);
    const message = renderMessageTemplate(component.commitMessage, translationContext(this.names(component), this.config, stats, author));
    await repository.writeFile(filename, content);
    const revision = await repository.commit(message, author, [filename]);
    await this.dataSource.transaction(async (manager) => {
      // Only rows still holding what was written: a later edit keeps its pending flag for the next commit.
      await manager.query(
        `UPDATE units u SET pending = false
           FROM unnest($1::bigint[], $2::text[], $3::text[]) AS r(id, target, source)
          WHERE u.id = r.id AND u.target = r.target AND u.source = r.source`,
        [units.map((u) => u.id), units.map((u) => u.target), units.map((u) => u.source)],
      );
      const blob = gitBlobHash(content);
      await manager.query(
        `UPDATE translations SET revision = CASE WHEN is_source THEN $2 || ',' || $2 ELSE $2 || split_part(revision, ',', 2) END
          WHERE id = $1`,
        [translationId, isSource ? blob : `${blob},`],
      );
      if (revision !== null) {
        const record: ChangeRecord = {
          action: ACTION_COMMIT,
          projectId: component.projectId,
          componentId: component.id,
          translationId,
          languageId,
          unitId: null,
          userId: actorId,
          authorId,
          target: '',
        };
        await recordChanges(manager, [record]);
      }
    });
    return revision !== null;
  }

  /** Commits files changed by Glossa itself (a new or removed language file) with a rendered message. */
  async commitFiles(
    component: WritableComponent,
    repository: GitRepository,
    files: string[],
    template: string,
    translation: { id: number | null; languageCode: string; languageName: string; filename: string },
    authorId: number | null,
  ): Promise<string | null> {
    const author: GitIdentity = await authorIdentity(this.dataSource.manager, authorId);
    const stats =
      translation.id !== null
        ? await loadTranslationStats(this.dataSource.manager, translation.id)
        : { ...translation, total: 0, translated: 0, fuzzy: 0, approved: 0, totalWords: 0, translatedWords: 0 };
    const message = renderMessageTemplate(template, translationContext(this.names(component), this.config, stats, author));
    return repository.commit(message, author, files);
  }

  async load(componentId: number): Promise<WritableComponent | null> {
    const component = await this.dataSource.getRepository(Component).findOne({
      where: { id: componentId },
      relations: { project: true, sourceLanguage: true },
    });
    return (component as WritableComponent | null) ?? null;
  }

  /**
   * A file of the working copy, or null when it does not exist; a file over MAX_FILE_BYTES is refused
   * (FormatLimitError) before it is read, so a huge file upstream cannot fill the memory at commit time.
   */
  async readWithinLimit(repository: GitRepository, filename: string): Promise<Buffer | null> {
    try {
      this.parser.assertSize(await repository.fileSize(filename));
      return await repository.readFile(filename);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /**
   * StoreWriteContext for writing a translation's file: its language and plural, the author as Last-Translator,
   * the template of a monolingual component (a string the file lacks is a copy of the template's entry).
   */
  async writeContextFor(component: WritableComponent, repository: GitRepository, translationId: number, author: GitIdentity | null): Promise<StoreWriteContext> {
    const info = await loadWriteInfo(this.dataSource.manager, translationId);
    const translationUrl = this.config.siteUrl + pathOf('projects', component.project.slug, component.slug, info.languageCode);
    const template = usesTemplate(this.formatOf(component), component.template) ? await this.readWithinLimit(repository, component.template) : null;
    return writeContext({ ...info, translationUrl }, author, template, component.reportSourceBugs);
  }

  formatOf(component: Component): FileFormat {
    const format = getFileFormat(component.fileFormat);
    if (!format) throw new Error(`Unsupported file format: ${component.fileFormat}`);
    return format;
  }

  settings(component: WritableComponent) {
    return { projectSlug: component.project.slug, componentSlug: component.slug, repo: component.repo, push: component.push, branch: component.branch };
  }

  private names(component: WritableComponent): ComponentNames {
    return { projectName: component.project.name, projectSlug: component.project.slug, name: component.name, slug: component.slug, branch: component.branch };
  }
}

/**
 * Pending units by translation, then by author (the author of each unit's last change), authors in the order
 * of their first edit — Weblate commits each author's strings separately so each commit has one author.
 */
function groupForCommits(units: readonly PendingUnit[]): Array<{ authorId: number | null; units: PendingUnit[] }> {
  const groups = new Map<string, { authorId: number | null; units: PendingUnit[]; first: bigint }>();
  for (const unit of units) {
    const key = `${unit.translation_id}:${unit.author_id ?? ''}`;
    const changeId = BigInt(unit.change_id ?? 0);
    const group = groups.get(key);
    if (group) {
      group.units.push(unit);
      if (changeId < group.first) group.first = changeId;
    } else {
      groups.set(key, { authorId: unit.author_id, units: [unit], first: changeId });
    }
  }
  return [...groups.values()].sort((a, b) => {
    if (a.units[0].translation_id !== b.units[0].translation_id) return a.units[0].translation_id - b.units[0].translation_id;
    return a.first < b.first ? -1 : a.first > b.first ? 1 : 0;
  });
}
