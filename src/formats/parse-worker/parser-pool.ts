import { Worker } from 'node:worker_threads';
import { FormatLimitError, FormatParseError, FormatWriteError, type ParseLimits } from '../format';
import type { PluralDeclaration, StoreUnit, StoreWriteContext, UnitKey, UnitWrite } from '../store';
import { UNITS_PER_CHUNK, type JobFailed, type WorkerReply, type WorkerRequest } from './parse-protocol';
import { parseWorkerScript } from './worker-script';

// Files are parsed (and written back) in worker threads (issue 10, items 2 and 9): parsing a large file on
// the main thread froze every request for seconds, and a file that needed more memory than the heap ended
// the process. Here a bounded number of workers take one file each; the rest wait in a queue. A worker runs
// with its own heap limit; one that exceeds it or takes too long is terminated, its file fails with
// FormatLimitError ('memory' or 'time'), and a fresh worker serves the next file.

export interface ParserPoolOptions {
  /** Worker threads at most (each works on one file at a time). */
  workers: number;
  /** V8 old-generation heap limit of each worker, in MB (Worker resourceLimits). */
  memoryMb: number;
  /** A job running longer is abandoned and its worker terminated. */
  timeoutMs?: number;
  /** An idle worker is ended after this long, giving its memory back. */
  idleMs?: number;
}

export interface ParseOutcome {
  units: StoreUnit[];
  /** Contexts of the first skipped duplicates (Weblate keeps the first unit of a context). */
  duplicates: string[];
  duplicateCount: number;
  /** The file's own plural declaration (PO Plural-Forms), when it has one. */
  plural?: PluralDeclaration;
  /** The language the file declares, when it declares one. */
  language?: string;
}

/** `write`: FileFormat.write on `current` (null: the format's new file); `create`: FileFormat.create from `current`. */
export interface WriteJob {
  mode: 'write' | 'create';
  current: Buffer | null;
  update: readonly UnitWrite[];
  add: readonly UnitWrite[];
  remove: readonly UnitKey[];
  context: StoreWriteContext;
  /**
   * Hand `current`'s memory over to the worker instead of copying it (the caller's Buffer is then empty).
   * Only a Buffer that owns its whole ArrayBuffer is handed over (a pooled small Buffer is copied).
   */
  handOver?: boolean;
}

interface Job {
  id: number;
  /** Sent in order, one per event-loop turn. */
  messages: WorkerRequest[];
  /** Memory the last message hands over to the worker (postMessage transfer list). */
  transfer?: ArrayBuffer;
  units: StoreUnit[];
  resolve(result: ParseOutcome | Buffer | null): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

const SHUT_DOWN = 'The file parser is shut down.';

export class ParserPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private script: string | null = null;
  private closed = false;

  constructor(private readonly options: ParserPoolOptions) {}

  /** Parses `content` as `formatId` in a worker. Rejects with FormatParseError/FormatLimitError for bad files. */
  parse(formatId: string, content: Buffer, limits: ParseLimits, language?: string): Promise<ParseOutcome> {
    return this.submit((id) => [{ id, type: 'parse', formatId, content, limits, language }]) as Promise<ParseOutcome>;
  }

  /**
   * A file's new content (FileFormat.write or create) computed in a worker; the updated units travel in
   * chunks. Resolves with null when `create` has no content for the format.
   */
  write(formatId: string, job: WriteJob, limits: ParseLimits): Promise<Buffer | null> {
    return this.submit((id) => {
      const messages: WorkerRequest[] = [];
      for (let start = 0; start < job.update.length; start += UNITS_PER_CHUNK) {
        messages.push({ id, type: 'write-units', units: job.update.slice(start, start + UNITS_PER_CHUNK) });
      }
      messages.push({ id, type: 'write', mode: job.mode, formatId, current: job.current, add: [...job.add], remove: [...job.remove], context: job.context, limits });
      return messages;
    }, job.handOver ? ownedMemory(job.current) : undefined) as Promise<Buffer | null>;
  }

  /** Jobs being worked on and waiting. */
  get load(): { running: number; queued: number } {
    return { running: [...this.slots].filter((slot) => slot.job !== null).length, queued: this.queue.length };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error(SHUT_DOWN));
    const slots = [...this.slots];
    this.slots.clear();
    await Promise.all(
      slots.map((slot) => {
        if (slot.timer) clearTimeout(slot.timer);
        slot.job?.reject(new Error(SHUT_DOWN));
        return slot.worker.terminate();
      }),
    );
  }

  private submit(messages: (id: number) => WorkerRequest[], transfer?: ArrayBuffer): Promise<ParseOutcome | Buffer | null> {
    if (this.closed) return Promise.reject(new Error(SHUT_DOWN));
    return new Promise<ParseOutcome | Buffer | null>((resolve, reject) => {
      const id = this.nextId++;
      this.queue.push({ id, messages: messages(id), transfer, units: [], resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = [...this.slots].find((candidate) => candidate.job === null);
      if (!slot && this.slots.size < this.options.workers) {
        try {
          slot = this.spawn();
        } catch (error) {
          for (const job of this.queue.splice(0)) job.reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
      }
      if (!slot) return;
      this.start(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    this.script ??= parseWorkerScript();
    const worker = new Worker(this.script, {
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb, maxYoungGenerationSizeMb: Math.min(32, Math.max(4, this.options.memoryMb / 8)) },
      stdout: false,
      stderr: false,
    });
    const slot: Slot = { worker, job: null, timer: null };
    worker.on('message', (reply: WorkerReply) => this.onReply(slot, reply));
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.retire(
        slot,
        outOfMemory
          ? new FormatLimitError('memory', `reading the file needs more than ${this.options.memoryMb} MB of memory`)
          : new Error(`The file parser failed: ${error.message}`),
      );
    });
    worker.on('exit', () => this.retire(slot, new Error('The file parser stopped unexpectedly.')));
    this.slots.add(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = job;
    slot.worker.ref();
    const timeoutMs = this.options.timeoutMs ?? 120_000;
    slot.timer = setTimeout(() => {
      this.retire(slot, new FormatLimitError('time', `reading the file took longer than ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    // Copied to the worker (structured clone): the caller keeps its buffers, except a handed-over `current`.
    const send = (index: number): void => {
      if (slot.job !== job) return; // retired meanwhile
      const last = index === job.messages.length - 1;
      slot.worker.postMessage(job.messages[index], last && job.transfer ? [job.transfer] : undefined);
      if (index + 1 < job.messages.length) setImmediate(() => send(index + 1));
    };
    send(0);
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    const job = slot.job;
    if (!job || reply.id !== job.id) return;
    if (reply.type === 'units') {
      for (const unit of reply.units) job.units.push(unit);
      // The next chunk only on a later turn of the event loop: requests waiting meanwhile go first.
      setImmediate(() => {
        if (slot.job === job) slot.worker.postMessage({ id: job.id, type: 'more' } satisfies WorkerRequest);
      });
      return;
    }
    this.release(slot);
    if (reply.type === 'done') {
      const outcome: ParseOutcome = { units: job.units, duplicates: reply.duplicates, duplicateCount: reply.duplicateCount };
      if (reply.plural) outcome.plural = reply.plural;
      if (reply.language !== undefined) outcome.language = reply.language;
      job.resolve(outcome);
    } else if (reply.type === 'written') {
      job.resolve(reply.content === null ? null : Buffer.from(reply.content.buffer, reply.content.byteOffset, reply.content.byteLength));
    } else {
      job.reject(failure(reply));
    }
    this.dispatch();
  }

  /** The worker finished its job: keep it for the next one, ended after a while of idleness. */
  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.worker.unref();
    slot.timer = setTimeout(() => this.retire(slot, null), this.options.idleMs ?? 30_000);
    slot.timer.unref();
  }

  /** Ends a worker (crashed, over its limits, or idle); its job, if any, fails with `error`. */
  private retire(slot: Slot, error: Error | null): void {
    if (!this.slots.delete(slot)) return;
    if (slot.timer) clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = null;
    void slot.worker.terminate();
    if (job && error) job.reject(error);
    this.dispatch();
  }
}

/** The ArrayBuffer `content` alone uses, which can be transferred; undefined for a view into shared memory. */
function ownedMemory(content: Buffer | null): ArrayBuffer | undefined {
  if (!content || !(content.buffer instanceof ArrayBuffer)) return undefined;
  return content.byteOffset === 0 && content.byteLength === content.buffer.byteLength ? content.buffer : undefined;
}

function failure(reply: JobFailed): Error {
  switch (reply.kind) {
    case 'parse':
      return new FormatParseError(reply.message);
    case 'write':
      return new FormatWriteError(reply.message);
    case 'internal':
      // An exception of the parser on this file (a bug, but one this file triggers): the file fails as
      // unreadable, so an import skips it and an upload is refused; the detail stays in the cause (logs).
      return new FormatParseError('the file could not be parsed (parser error)', { cause: new Error(reply.message) });
    default:
      return new FormatLimitError(reply.kind, reply.message);
  }
}
