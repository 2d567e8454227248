import { parentPort } from 'node:worker_threads';
import { applyUnitsToFile, newTranslationFile, type UnitToWrite } from '../file-writer';
import { FormatLimitError, FormatParseError, FormatWriteError, type ParsedUnit, type TranslationFileFormat } from '../format';
import { getFileFormat } from '../format.registry';
import { assertStorableUnits } from '../storable-text';
import { MAX_REPORTED_DUPLICATES, UNITS_PER_CHUNK, type ParseRequest, type WorkerReply, type WorkerRequest, type WriteRequest } from './parse-protocol';

// The worker thread of ParserPool: bytes in, units out (and units in, bytes out for write-back), nothing
// else (no database, no Nest). It runs with a V8 heap limit (resourceLimits), so a hostile file ends this
// thread, never the server process.

const port = parentPort;
if (!port) throw new Error('parse-worker.entry must run as a worker thread');
const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

/** Units of write requests still arriving, by request id. */
const pendingUnits = new Map<number, UnitToWrite[]>();

/** Parsed units not yet taken by the main thread, by request id. */
const parsed = new Map<number, { units: ParsedUnit[]; next: number; duplicates: string[]; duplicateCount: number }>();

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

function formatOf(id: string): TranslationFileFormat {
  const format = getFileFormat(id);
  if (!format) throw new Error(`Unknown file format ${id}`);
  return format;
}

const bytes = (content: Uint8Array): Buffer => Buffer.from(content.buffer, content.byteOffset, content.byteLength);

function parse(request: ParseRequest): void {
  const duplicates: string[] = [];
  let duplicateCount = 0;
  const units = formatOf(request.formatId).parse(bytes(request.content), {
    limits: request.limits,
    onDuplicate: (duplicate) => {
      duplicateCount += 1;
      if (duplicates.length < MAX_REPORTED_DUPLICATES) duplicates.push(duplicate.context);
    },
  });
  assertStorableUnits(units);
  parsed.set(request.id, { units, next: 0, duplicates, duplicateCount });
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
  reply({ id, type: 'done', duplicates: state.duplicates, duplicateCount: state.duplicateCount });
}

function write(request: WriteRequest): void {
  const format = formatOf(request.formatId);
  const current = request.current === null ? null : bytes(request.current);
  const units = pendingUnits.get(request.id) ?? [];
  pendingUnits.delete(request.id);
  const content =
    request.mode === 'new' ? newTranslationFile(format, current, request.limits) : applyUnitsToFile(format, current, units, new Set(request.removed), request.limits);
  // A fresh copy whose memory can be handed over to the main thread without copying it again.
  const out = new Uint8Array(content);
  reply({ id: request.id, type: 'written', content: out }, [out.buffer as ArrayBuffer]);
}

function describe(error: unknown): { kind: 'parse' | 'write' | 'internal' | FormatLimitError['kind']; message: string } {
  if (error instanceof FormatLimitError) return { kind: error.kind, message: error.message };
  if (error instanceof FormatParseError) return { kind: 'parse', message: error.message };
  if (error instanceof FormatWriteError) return { kind: 'write', message: error.message };
  return { kind: 'internal', message: error instanceof Error ? error.message : String(error) };
}
