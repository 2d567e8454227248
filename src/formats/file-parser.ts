import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { APP_CONFIG, type AppConfig, type FileLimits } from '../config/app-config';
import { FormatLimitError, FormatParseError, type FormatLimitKind, type ParseLimits } from './format';
import { ParserPool, type ParseOutcome } from './parse-worker/parser-pool';
import type { FileFormat, StoreChanges, StoreWriteContext } from './store';

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
export class FileParser implements OnApplicationShutdown {
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

  /**
   * Units of `content` (FileFormat.parse; `language`: the translation's code, for category-keyed plurals);
   * rejects with FormatParseError (bad file) or FormatLimitError (file past a limit).
   */
  async parse(format: FileFormat, content: Buffer, language?: string): Promise<ParseOutcome> {
    this.assertSize(content.length);
    this.events.emit('start', { format: format.id, bytes: content.length });
    try {
      return await this.pool.parse(format.id, content, this.parseLimits(), language);
    } catch (error) {
      if (error instanceof FormatParseError && error.cause instanceof Error) this.logger.warn(`Parser error on a ${format.id} file: ${error.cause.message}`);
      throw error;
    } finally {
      this.events.emit('settled', { format: format.id, bytes: content.length });
    }
  }

  /**
   * `current` patched with `changes` (FileFormat.write), in the worker. `current` null: the file does not exist
   * yet, it starts as the format's new file. Rejects like parse for a file past the limits, FormatWriteError
   * when the changes cannot be applied. `handOver`: the caller no longer needs `current`, whose memory then
   * moves to the worker instead of being copied (a 6 MB file's copy was a tenth of a commit's main-thread time).
   */
  async write(format: FileFormat, current: Buffer | null, changes: StoreChanges, context: StoreWriteContext, { handOver = false } = {}): Promise<Buffer> {
    if (current) this.assertSize(current.length);
    const job = { mode: 'write' as const, current, update: changes.update, add: changes.add ?? [], remove: changes.remove ?? [], context, handOver };
    return (await this.pool.write(format.id, job, this.parseLimits()))!;
  }

  /** A new translation file from new_base/template or the format's new-file content (FileFormat.create); null: impossible. */
  async create(format: FileFormat, base: Buffer | null, context: StoreWriteContext): Promise<Buffer | null> {
    if (base) this.assertSize(base.length);
    return this.pool.write(format.id, { mode: 'create', current: base, update: [], add: [], remove: [], context }, this.parseLimits());
  }

  private parseLimits(): ParseLimits {
    return { maxUnits: this.limits.maxUnitsPerFile, maxStringLength: this.limits.maxStringLength };
  }

  /**
   * After the job queue has stopped (its beforeApplicationShutdown waits for running jobs): closing the
   * workers in onModuleDestroy, which Nest calls first, failed an import that was still running at SIGTERM.
   */
  onApplicationShutdown(): Promise<void> {
    return this.pool.close();
  }
}
