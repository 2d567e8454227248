import type { UnitToWrite } from '../file-writer';
import type { FormatLimitKind, ParsedUnit, ParseLimits } from '../format';

// Messages between ParserPool (main thread) and parse-worker.entry.ts (worker thread). Plain data only:
// they cross the thread boundary by structured clone. Units travel in chunks, both ways, so that the main
// thread (de)serializes one chunk per event-loop turn instead of a whole large file at once and serves
// other requests in between. Parsed units are pulled: the worker sends the next chunk when the main thread
// asks for it (`more`), since a port hands every message already queued to the main thread in one go.

/** Parse `content` into units. */
export interface ParseRequest {
  id: number;
  type: 'parse';
  formatId: string;
  content: Uint8Array;
  limits: ParseLimits;
}

/** A chunk of the units of the `write` request with the same id, sent before it. */
export interface WriteUnitsChunk {
  id: number;
  type: 'write-units';
  units: UnitToWrite[];
}

/**
 * `apply`: applyUnitsToFile on `current` (null: a file not written yet) with the units sent before, minus
 * the `removed` contexts. `new`: newTranslationFile from `current` as the component's new_base.
 */
export interface WriteRequest {
  id: number;
  type: 'write';
  mode: 'apply' | 'new';
  formatId: string;
  current: Uint8Array | null;
  removed: string[];
  limits: ParseLimits;
}

/** The main thread has taken the last chunk of parse `id` and wants the next one (or `done`). */
export interface MoreUnits {
  id: number;
  type: 'more';
}

export type WorkerRequest = ParseRequest | WriteUnitsChunk | WriteRequest | MoreUnits;

export interface UnitsChunk {
  id: number;
  type: 'units';
  units: ParsedUnit[];
}

export interface ParseDone {
  id: number;
  type: 'done';
  /** Contexts of skipped duplicate leaves, at most MAX_REPORTED_DUPLICATES of them. */
  duplicates: string[];
  duplicateCount: number;
}

export interface Written {
  id: number;
  type: 'written';
  content: Uint8Array;
}

export interface JobFailed {
  id: number;
  type: 'failed';
  /** `parse`/`write`: FormatParseError/FormatWriteError; a limit kind: FormatLimitError; `internal`: a bug. */
  kind: 'parse' | 'write' | 'internal' | FormatLimitKind;
  message: string;
}

export type WorkerReply = UnitsChunk | ParseDone | Written | JobFailed;

export const UNITS_PER_CHUNK = 2000;
export const MAX_REPORTED_DUPLICATES = 20;
