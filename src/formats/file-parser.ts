import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { APP_CONFIG, type AppConfig, type FileLimits } from '../config/app-config';
import type { UnitToWrite } from './file-writer';
import { FormatLimitError, FormatParseError, type FormatLimitKind, type ParseLimits, type TranslationFileFormat } from './format';
import { ParserPool, type ParseOutcome } from './parse-worker/parser-pool';

export type { ParseOutcome } from './parse-worker/parser-pool';

/** The setting that raises each limit, for messages read by administrators (task logs). */
export const LIMIT_SETTINGS: Readonly<Record<FormatLimitKind, string>> = {
  bytes: 'MAX_FILE_BYTES',
  units: 'MAX_UNITS_PER_FILE',
  'string-length': 'MAX_STRING_LENGTH',
  memory: 'PARSE_WORKER_MEMORY_MB',
  time: 'the parse time limit',
};

/**
 * Every translation file Glossa reads (repository scans, uploads, write-back, downloads with pending edits)
 * goes through here: the configured limits (README "Configuration") and a worker thread, so the event loop
 * keeps serving requests while a file is parsed. `events` emits `start` and `settled` per parsed file
 * (observability and tests).
 */
@Injectable()
export class FileParser implements OnModuleDestroy {
  readonly limits: FileLimits;
  readonly events = new EventEmitter();
  private readonly pool: ParserPool;
  private readonly logger = new Logger(FileParser.name);

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limits = config.fileLimits;
    this.pool = new ParserPool({ workers: config.parseWorkers, memoryMb: config.parseWorkerMemoryMb });
  }

  /** Throws FormatLimitError('bytes') when a file of `size` bytes may not be read at all. */
  assertSize(size: number): void {
    if (size > this.limits.maxFileBytes) {
      throw new FormatLimitError('bytes', `the file has ${size} bytes, more than the limit of ${this.limits.maxFileBytes}`);
    }
  }

  /** Units of `content`; rejects with FormatParseError (bad file) or FormatLimitError (file past a limit). */
  async parse(format: TranslationFileFormat, content: Buffer): Promise<ParseOutcome> {
    this.assertSize(content.length);
    this.events.emit('start', { format: format.id, bytes: content.length });
    try {
      return await this.pool.parse(format.id, content, this.parseLimits());
    } catch (error) {
      if (error instanceof FormatParseError && error.cause instanceof Error) this.logger.warn(`Parser error on a ${format.id} file: ${error.cause.message}`);
      throw error;
    } finally {
      this.events.emit('settled', { format: format.id, bytes: content.length });
    }
  }

  /**
   * The file with `units` applied and `removed` contexts dropped (file-writer.ts applyUnitsToFile), built in
   * the worker. `current` null: the file does not exist yet. Rejects like parse for a file past the limits.
   */
  async applyUnits(format: TranslationFileFormat, current: Buffer | null, units: readonly UnitToWrite[], removed: ReadonlySet<string> = new Set()): Promise<Buffer> {
    if (current) this.assertSize(current.length);
    return this.pool.write(format.id, { mode: 'apply', current, units, removed: [...removed] }, this.parseLimits());
  }

  /** A new translation file from the component's new_base (file-writer.ts newTranslationFile), built in the worker. */
  async newTranslationFile(format: TranslationFileFormat, newBase: Buffer | null): Promise<Buffer> {
    if (newBase) this.assertSize(newBase.length);
    return this.pool.write(format.id, { mode: 'new', current: newBase, units: [], removed: [] }, this.parseLimits());
  }

  private parseLimits(): ParseLimits {
    return { maxUnits: this.limits.maxUnitsPerFile, maxStringLength: this.limits.maxStringLength };
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.close();
  }
}
