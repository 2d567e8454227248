import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { recordChanges } from '../modules/changes/change-recorder';
import { ComponentScanner } from './component-scanner';
import { WriteBackService, type OperationOutcome } from './write-back.service';
import { answerOperationFailure } from './operation-failure';

// Upload `method=replace` (weblate-api.md §10.8, formats.md §5 "Methods"), as Weblate's handle_replace does
// it: the translation's pending changes are committed first, the uploaded bytes become the translation file
// as they are (no re-serialisation), they are committed as the uploader with the component's commit message,
// and the component's files are read again, so the translation is what the file says: strings the file lacks
// are gone (bilingual) or untranslated (monolingual), each string the file changed records 59 "String
// updated in the repository" like any re-read, and the translation records one 54 "Replaced file by upload"
// with the uploader as user and author (Weblate's check_sync(change=ACTION_REPLACE_UPLOAD)).

export const ACTION_REPLACE_UPLOAD = 54;

export interface ReplaceUploadOutcome extends OperationOutcome {
  /** Units of the translation after the re-read (Weblate answers accepted = unit_set.count()). */
  units?: number;
}

export interface ReplacedTranslation {
  id: number;
  componentId: number;
  projectId: number;
  languageId: number;
  languageCode: string;
  languageName: string;
  filename: string;
}

@Injectable()
export class ReplaceUploadService {
  private readonly logger = new Logger(ReplaceUploadService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly writeBack: WriteBackService,
    private readonly scanner: ComponentScanner,
  ) {}

  /** `content` has already been read in the component's format (the caller refuses a file that does not parse). */
  async replace(translation: ReplacedTranslation, content: Buffer, actorId: number): Promise<ReplaceUploadOutcome> {
    return answerOperationFailure(this.logger, `replace upload on translation ${translation.id}`, () =>
      this.writeBack.withWorkingCopy(translation.componentId, async (component, repository) => {
        // Nothing acknowledged is lost: edits not yet written go into the history before the file is replaced.
        await this.writeBack.commitLocked(component, repository, translation.id, actorId);
        await repository.writeFile(translation.filename, content);
        // Identical bytes commit nothing; the re-read and the 54 still happen, as in Weblate.
        await this.writeBack.commitFiles(component, repository, [translation.filename], component.commitMessage, translation, actorId);
        await this.scanner.scan(component, repository);
        await recordChanges(this.dataSource.manager, [
          {
            action: ACTION_REPLACE_UPLOAD,
            projectId: translation.projectId,
            componentId: translation.componentId,
            translationId: translation.id,
            languageId: translation.languageId,
            unitId: null,
            userId: actorId,
            authorId: actorId,
            target: '',
          },
        ]);
        const [{ units }]: Array<{ units: number }> = await this.dataSource.query('SELECT count(*)::int AS units FROM units WHERE translation_id = $1', [translation.id]);
        return { result: true, units };
      }),
    );
  }
}
