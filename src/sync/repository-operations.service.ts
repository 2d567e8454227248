import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { recordChanges } from '../modules/changes/change-recorder';
import { gitBlobHash } from '../vcs/git-blob-hash';
import { FileParser } from '../formats/file-parser';
import type { UnitKey } from '../formats/store';
import type { GitRepository } from '../vcs/git.repository';
import { ComponentImportService } from './component-import.service';
import { authorIdentity } from './commit-context';
import { ComponentScanner } from './component-scanner';
import { NOT_CLONED_DETAIL, WriteBackService, type OperationOutcome, type WritableComponent } from './write-back.service';
import { answerOperationFailure } from './operation-failure';

// The repository operations of weblate-api.md §10.5 beyond commit and push, and the file work of adding and
// removing languages and strings (§10.2, §10.3, §10.10). Each runs under the component lock; git and file
// failures become `{"result": false, "detail"}` instead of errors, as Weblate answers them.

export const ACTION_RESET = 19;

@Injectable()
export class RepositoryOperationsService {
  private readonly logger = new Logger(RepositoryOperationsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly writeBack: WriteBackService,
    private readonly imports: ComponentImportService,
    private readonly scanner: ComponentScanner,
    private readonly parser: FileParser,
  ) {}

  /** `pull`: pending units are committed first (Weblate's do_update), then upstream is merged and rescanned. */
  async pull(componentId: number, actorId: number | null): Promise<OperationOutcome> {
    const committed = await this.guard(componentId, 'pull', () => this.writeBack.commitPending(componentId, { actorId }));
    if (!committed.result && committed.detail !== NOT_CLONED_DETAIL) return committed;
    return this.imports.pullComponent(componentId);
  }

  /**
   * `reset`: the working copy goes back to upstream (local commits dropped), pending units are discarded and
   * the files are read again (59 for strings whose text changes back), recording 19 "Reset repository".
   */
  reset(componentId: number, actorId: number | null): Promise<OperationOutcome> {
    return this.guard(componentId, 'reset', () =>
      this.writeBack.withWorkingCopy(componentId, async (component, repository) => {
        await repository.fetch();
        await repository.resetToUpstream();
        await this.dataSource.query(
          'UPDATE units u SET pending = false FROM translations t WHERE t.id = u.translation_id AND t.component_id = $1 AND u.pending',
          [component.id],
        );
        await recordChanges(this.dataSource.manager, [
          { action: ACTION_RESET, projectId: component.projectId, componentId: component.id, translationId: null, languageId: null, unitId: null, userId: actorId, authorId: actorId, target: '' },
        ]);
        await this.scanner.scan(component, repository, { force: true });
        return { result: true };
      }),
    );
  }

  /** `cleanup`: `git clean -f -d`, untracked files and directories go. */
  cleanup(componentId: number): Promise<OperationOutcome> {
    return this.guard(componentId, 'cleanup', () =>
      this.writeBack.withWorkingCopy(componentId, async (_component, repository) => {
        await repository.clean();
        return { result: true };
      }),
    );
  }

  /** `file-sync`: every translated string is written to its file again, then committed (Weblate's do_file_sync). */
  fileSync(componentId: number, actorId: number | null): Promise<OperationOutcome> {
    return this.guard(componentId, 'file-sync', () =>
      this.writeBack.withWorkingCopy(componentId, async (component, repository) => {
        await this.dataSource.query(
          `UPDATE units u SET pending = true FROM translations t
            WHERE t.id = u.translation_id AND t.component_id = $1 AND t.filename <> '' AND (u.target <> '' OR t.is_source)`,
          [component.id],
        );
        await this.writeBack.commitLocked(component, repository, null, actorId);
        return { result: true };
      }),
    );
  }

  /** `file-scan`: pending units are committed, then every file is read again. */
  fileScan(componentId: number, actorId: number | null): Promise<OperationOutcome> {
    return this.guard(componentId, 'file-scan', () =>
      this.writeBack.withWorkingCopy(componentId, async (component, repository) => {
        await this.writeBack.commitLocked(component, repository, null, actorId);
        await this.scanner.scan(component, repository, { force: true });
        return { result: true };
      }),
    );
  }

  /**
   * A language was added (§10.10): its file is created from `new_base` (or the format's empty file) and
   * committed with `add_message`, then pushed when push_on_commit says so.
   */
  addLanguageFile(componentId: number, translationId: number, actorId: number | null): Promise<OperationOutcome> {
    return this.guard(componentId, 'add language', () =>
      this.writeBack.withWorkingCopy(componentId, async (component, repository) => {
        const [translation]: Array<{ filename: string; code: string; name: string }> = await this.dataSource.query(
          'SELECT t.filename, l.code, l.name FROM translations t JOIN languages l ON l.id = t.language_id WHERE t.id = $1',
          [translationId],
        );
        if (!translation || translation.filename === '') return { result: true };
        if ((await fileExists(repository, translation.filename))) return { result: true };
        // From new_base, else the format's new-file content (formats.md §2.4); a format without one refuses.
        const base = component.newBase ? await this.writeBack.readWithinLimit(repository, component.newBase) : null;
        const context = await this.writeBack.writeContextFor(component, repository, translationId, await authorIdentity(this.dataSource.manager, actorId));
        const content = await this.parser.create(this.writeBack.formatOf(component), base, context);
        if (content === null) return { result: false, detail: 'This file format cannot start a new translation without a template for new translations (new_base).' };
        await repository.writeFile(translation.filename, content);
        const info = { id: translationId, languageCode: translation.code, languageName: translation.name, filename: translation.filename };
        await this.writeBack.commitFiles(component, repository, [translation.filename], component.addMessage, info, actorId);
        await this.dataSource.query(
          `UPDATE translations SET revision = $2 || ',' || (SELECT split_part(s.revision, ',', 2) FROM translations s
              WHERE s.component_id = $3 AND s.is_source) WHERE id = $1`,
          [translationId, gitBlobHash(content), component.id],
        );
        return this.pushIfConfigured(component, repository, actorId);
      }),
    );
  }

  /**
   * Throws UnsafePathError when the file of a new language could not be created inside the working copy (a
   * symlinked language directory, issue 10 item 10); checks only, creates nothing. A component not cloned yet
   * has nothing to check.
   */
  async assertLanguageFileCreatable(componentId: number, filename: string): Promise<void> {
    await this.writeBack.withWorkingCopy(componentId, async (_component, repository) => {
      await repository.assertWritable(filename);
      return { result: true };
    });
  }

  /** A language was removed (§10.3): its file goes in a commit with `delete_message`. */
  removeLanguageFile(componentId: number, language: { code: string; name: string; filename: string }, actorId: number | null): Promise<OperationOutcome> {
    return this.guard(componentId, 'remove language', () =>
      this.writeBack.withWorkingCopy(componentId, async (component, repository) => {
        if (language.filename === '' || !(await fileExists(repository, language.filename))) return { result: true };
        await repository.removeFile(language.filename);
        const info = { id: null, languageCode: language.code, languageName: language.name, filename: language.filename };
        await this.writeBack.commitFiles(component, repository, [language.filename], component.deleteMessage, info, actorId);
        return this.pushIfConfigured(component, repository, actorId);
      }),
    );
  }

  /**
   * Strings were removed (§10.2 DELETE): pending units are committed first, then the keys leave every file
   * of the component, one commit per file with `commit_message`, as Weblate's delete_unit does.
   */
  removeStrings(componentId: number, keys: UnitKey[], actorId: number | null): Promise<OperationOutcome> {
    return this.guard(componentId, 'remove string', () =>
      this.writeBack.withWorkingCopy(componentId, async (component, repository) => {
        await this.writeBack.commitLocked(component, repository, null, actorId);
        const removed = new Set(keys.map((key) => key.context));
        const format = this.writeBack.formatOf(component);
        const translations: Array<{ id: number; filename: string; code: string; name: string }> = await this.dataSource.query(
          `SELECT t.id, t.filename, l.code, l.name FROM translations t JOIN languages l ON l.id = t.language_id
            WHERE t.component_id = $1 AND t.filename <> '' ORDER BY t.is_source DESC, t.id`,
          [component.id],
        );
        for (const translation of translations) {
          const current = await this.writeBack.readWithinLimit(repository, translation.filename);
          if (current === null || !(await this.parser.parse(format, current, translation.code)).units.some((unit) => removed.has(unit.context))) continue;
          const context = await this.writeBack.writeContextFor(component, repository, translation.id, await authorIdentity(this.dataSource.manager, actorId));
          await repository.writeFile(translation.filename, await this.parser.write(format, current, { update: [], remove: keys }, context));
          const info = { id: translation.id, languageCode: translation.code, languageName: translation.name, filename: translation.filename };
          await this.writeBack.commitFiles(component, repository, [translation.filename], component.commitMessage, info, actorId);
        }
        return this.pushIfConfigured(component, repository, actorId);
      }),
    );
  }

  private async pushIfConfigured(component: WritableComponent, repository: GitRepository, actorId: number | null): Promise<OperationOutcome> {
    if (!component.pushOnCommit || component.push === '') return { result: true };
    return this.writeBack.pushLocked(component, repository, actorId);
  }

  /** Failures of git, of the files or of the configuration are the operation's answer; bugs stay errors. */
  private guard(componentId: number, operation: string, work: () => Promise<OperationOutcome>): Promise<OperationOutcome> {
    return answerOperationFailure(this.logger, `${operation} on component ${componentId}`, work);
  }
}

/** Whether the working copy has the file (without reading it: it may be large). */
async function fileExists(repository: GitRepository, filename: string): Promise<boolean> {
  return repository.fileSize(filename).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
}
