import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FileParser } from '../formats/file-parser';
import { PLURAL_SEPARATOR, type StoreUnit, type UnitKey, type UnitWrite } from '../formats/store';
import { recordChanges } from '../modules/changes/change-recorder';
import { msgmerge, msgmergeAvailable } from './po-msgmerge';
import { authorIdentity } from './commit-context';
import { ComponentScanner } from './component-scanner';
import { WriteBackService, type OperationOutcome } from './write-back.service';
import { answerOperationFailure } from './operation-failure';
import { StagedFiles } from './staged-files';

// Upload `method=source` (weblate-api.md §10.8, formats.md §5): the uploaded file is the component's new
// template (a POT) and every translation file is brought in line with it, as Weblate's handle_source does:
// pending changes are committed first, each file is run through `msgmerge --previous` (po-msgmerge.ts: the
// template's entries and comments, changed strings fuzzy with their previous msgid, dropped strings kept as
// obsolete `#~` entries), the upload replaces `new_base` when the component has one, everything goes in one
// commit with `add_message`, and the component is read again. Each translation then records 74 "Translation
// updated by source upload". Every file is merged before any is written (staged on disk, one in memory at a
// time), so a failure leaves the working copy as it was.
//
// Without a msgmerge binary (gettext not installed) the files are patched instead: strings the template
// lacks leave the files, strings it adds join them untranslated (with the template's notes, flags and
// locations); no fuzzy matching, no obsolete entries, and kept entries keep their own comments.

export const ACTION_SOURCE_UPLOAD = 74;

export interface SourceUploadOutcome extends OperationOutcome {
  /** Units of the source translation after the update (Weblate answers accepted = total = this count). */
  units?: number;
}

const key = (unit: UnitKey): string => `${unit.context}\u0000${unit.source.join(PLURAL_SEPARATOR)}`;

@Injectable()
export class SourceUploadService {
  private readonly logger = new Logger(SourceUploadService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly writeBack: WriteBackService,
    private readonly scanner: ComponentScanner,
    private readonly parser: FileParser,
  ) {}

  /** `template`: the units the upload parsed into (in the component's format); `content`: its bytes. */
  async update(componentId: number, sourceTranslationId: number, template: readonly StoreUnit[], content: Buffer, actorId: number): Promise<SourceUploadOutcome> {
    return answerOperationFailure(this.logger, `source upload on component ${componentId}`, () =>
      this.writeBack.withWorkingCopy(componentId, async (component, repository) => {
        await this.writeBack.commitLocked(component, repository, null, actorId);
        const format = this.writeBack.formatOf(component);
        const wanted = new Map(template.map((unit) => [key(unit), unit]));
        const translations: Array<{ id: number; filename: string; code: string; name: string }> = await this.dataSource.query(
          `SELECT t.id, t.filename, l.code, l.name FROM translations t JOIN languages l ON l.id = t.language_id
            WHERE t.component_id = $1 AND NOT t.is_source AND t.filename <> '' ORDER BY t.id`,
          [component.id],
        );
        const author = await authorIdentity(this.dataSource.manager, actorId);
        const merge = format.id === 'po' && (await msgmergeAvailable());
        // Every file is prepared before any is written; they wait on disk, not in memory (staged-files.ts).
        const files = await StagedFiles.using(async (updated) => {
          for (const translation of translations) {
            const current = await this.writeBack.readWithinLimit(repository, translation.filename);
            if (current === null) continue;
            if (merge) {
              const merged = await msgmerge(current, content);
              if (!merged.equals(current)) await updated.add(translation.filename, merged);
              continue;
            }
            const units = (await this.parser.parse(format, current, translation.code)).units;
            const present = new Set(units.map(key));
            const remove: UnitKey[] = units.filter((unit) => !wanted.has(key(unit))).map((unit) => ({ context: unit.context, source: unit.source }));
            const context = await this.writeBack.writeContextFor(component, repository, translation.id, author);
            const add: UnitWrite[] = template
              .filter((unit) => !present.has(key(unit)))
              .map((unit) => ({
                context: unit.context,
                source: unit.source,
                target: unit.plural ? Array.from({ length: context.plural.number }, () => '') : [''],
                state: 'empty',
                note: unit.note,
                flags: unit.flags,
                location: unit.location,
              }));
            if (remove.length === 0 && add.length === 0) continue;
            await updated.add(translation.filename, await this.parser.write(format, current, { update: [], add, remove }, context));
          }
          const written: string[] = [];
          await updated.forEach(async (filename, bytes) => {
            await repository.writeFile(filename, bytes);
            written.push(filename);
          });
          return written;
        });
        if (component.newBase) {
          await repository.writeFile(component.newBase, content);
          files.push(component.newBase);
        }
        if (files.length > 0) {
          const source = { id: sourceTranslationId, languageCode: component.sourceLanguage.code, languageName: component.sourceLanguage.name, filename: '' };
          await this.writeBack.commitFiles(component, repository, files, component.addMessage, source, actorId);
        }
        await this.scanner.scan(component, repository, { force: true });
        const rows: Array<{ id: number; language_id: number }> = await this.dataSource.query(
          'SELECT id, language_id FROM translations WHERE component_id = $1 ORDER BY is_source DESC, id',
          [component.id],
        );
        await recordChanges(
          this.dataSource.manager,
          rows.map((row) => ({
            action: ACTION_SOURCE_UPLOAD,
            projectId: component.projectId,
            componentId: component.id,
            translationId: row.id,
            languageId: row.language_id,
            unitId: null,
            userId: actorId,
            authorId: actorId,
            target: '',
          })),
        );
        const [{ units }] = await this.dataSource.query('SELECT count(*)::int AS units FROM units WHERE translation_id = $1', [sourceTranslationId]);
        return { result: true, units };
      }),
    );
  }
}
