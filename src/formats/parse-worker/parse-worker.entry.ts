import { parentPort } from 'node:worker_threads';
import { FormatLimitError, FormatParseError, FormatWriteError } from '../format';
import { getFileFormat } from '../format.registry';
import { usePoWriteCache } from '../gettext/po-write-cache';
import { assertStorableUnits } from '../storable-text';
import type { FileFormat, PluralDeclaration, StoreUnit, UnitWrite } from '../store';
import { MAX_REPORTED_DUPLICATES, UNITS_PER_CHUNK, type ParseRequest, type WorkerReply, type WorkerRequest, type WriteRequest } from './parse-protocol';

// The worker thread of ParserPool: bytes in, units out (and changes in, bytes out for write-back), nothing
// else (no database, no Nest). Every registered FileFormat (format.registry.ts) runs here. It runs with a V8
// heap limit (resourceLimits), so a hostile file ends this thread, never the server process.

const port = parentPort;
if (!port) throw new Error('parse-worker.entry must run as a worker thread');

// Every buffer a request brings belongs to this thread from then on (transferred or cloned), so a PO write may
// remember its output's entry table by sharing the input's memory (po-write-cache.ts, issue 11).
usePoWriteCache(true);

const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

/** Updated units of write requests still arriving, by request id. */
const pendingUnits = new Map<number, UnitWrite[]>();

interface ParsedState {
  units: StoreUnit[];
  next: number;
  duplicates: string[];
  duplicateCount: number;
  plural?: PluralDeclaration;
  language?: string;
}

/** Parsed units not yet taken by the main thread, by request id. */
const parsed = new Map<number, ParsedState>();

port.on('message', (request: WorkerRequest) => {
  if (request.type === 'write-units') {
    const units = pendingUnits.get(request.id) ?? [];
    for (const unit of request.units) units.push(unit);
    pendingUnits.set(request.id, units);
    return;
  }
  if (request.type === 'more') {
    sendNextChunk(request.id);
    return;
  }
  try {
    if (request.type === 'parse') parse(request);
    else write(request);
  } catch (error) {
    pendingUnits.delete(request.id);
    reply({ id: request.id, type: 'failed', ...describe(error) });
  }
});

function formatOf(id: string): FileFormat {
  const format = getFileFormat(id);
  if (!format) throw new Error(`Unknown file format ${id}`);
  return format;
}

const bytes = (content: Uint8Array): Buffer => Buffer.from(content.buffer, content.byteOffset, content.byteLength);

function parse(request: ParseRequest): void {
  const duplicates: string[] = [];
  let duplicateCount = 0;
  const store = formatOf(request.formatId).parse(bytes(request.content), {
    limits: request.limits,
    language: request.language,
    onDuplicate: (duplicate) => {
      duplicateCount += 1;
      if (duplicates.length < MAX_REPORTED_DUPLICATES) duplicates.push(duplicate.context);
    },
  });
  assertStorableUnits(store.units);
  parsed.set(request.id, { units: store.units, next: 0, duplicates, duplicateCount, plural: store.plural, language: store.language });
  sendNextChunk(request.id);
}

function sendNextChunk(id: number): void {
  const state = parsed.get(id);
  if (!state) return;
  if (state.next < state.units.length) {
    reply({ id, type: 'units', units: state.units.slice(state.next, state.next + UNITS_PER_CHUNK) });
    state.next += UNITS_PER_CHUNK;
    return;
  }
  parsed.delete(id);
  reply({ id, type: 'done', duplicates: state.duplicates, duplicateCount: state.duplicateCount, plural: state.plural, language: state.language });
}

function write(request: WriteRequest): void {
  const format = formatOf(request.formatId);
  const current = request.current === null ? null : bytes(request.current);
  const update = pendingUnits.get(request.id) ?? [];
  pendingUnits.delete(request.id);
  // Structured clone turns the template Buffer into a Uint8Array.
  const template = request.context.template ? bytes(request.context.template) : null;
  const context = { ...request.context, template };
  let content: Buffer | null;
  if (request.mode === 'create') {
    content = format.create(current, context);
  } else {
    // A file not written yet starts as the format's new file (Weblate creates it the same way).
    const base = current ?? format.create(null, context);
    if (base === null) throw new FormatWriteError('the file does not exist and this format cannot start an empty one');
    // The file must be within the limits before it is patched: write-back reads the whole file too. A
    // format that checks them while it writes is not parsed first (issue 11: that parse was most of a
    // one-edit commit of a 50,000-entry PO file).
    const changes = { update, add: request.add, remove: request.remove };
    if (format.writeWithinLimits) {
      content = format.writeWithinLimits(base, changes, context, request.limits);
    } else {
      format.parse(base, { limits: request.limits, onDuplicate: () => undefined });
      content = format.write(base, changes, context);
    }
  }
  if (content === null) {
    reply({ id: request.id, type: 'written', content: null });
    return;
  }
  // Handed over to the main thread without a copy (transfer). A Buffer that shares its memory with others
  // (Node's pool of small buffers) is copied first: transferring that memory would take it from them.
  const owns = content.byteOffset === 0 && content.byteLength === content.buffer.byteLength && content.buffer instanceof ArrayBuffer;
  const out = owns ? new Uint8Array(content.buffer, 0, content.byteLength) : new Uint8Array(content);
  reply({ id: request.id, type: 'written', content: out }, [out.buffer as ArrayBuffer]);
}

function describe(error: unknown): { kind: 'parse' | 'write' | 'internal' | FormatLimitError['kind']; message: string } {
  if (error instanceof FormatLimitError) return { kind: error.kind, message: error.message };
  if (error instanceof FormatParseError) return { kind: 'parse', message: error.message };
  if (error instanceof FormatWriteError) return { kind: 'write', message: error.message };
  return { kind: 'internal', message: error instanceof Error ? error.message : String(error) };
}
