import type { FormatLimitKind, ParseLimits } from '../format';
import type { PluralDeclaration, StoreUnit, StoreWriteContext, UnitKey, UnitWrite } from '../store';

// Messages between ParserPool (main thread) and parse-worker.entry.ts (worker thread). Plain data only:
// they cross the thread boundary by structured clone (a Buffer arrives as a Uint8Array). Units travel in
// chunks, both ways, so that the main thread (de)serializes one chunk per event-loop turn instead of a whole
// large file at once and serves other requests in between. Parsed units are pulled: the worker sends the
// next chunk when the main thread asks for it (`more`), since a port hands every message already queued to
// the main thread in one go.

/** Parse `content` into units (FileFormat.parse). */
export interface ParseRequest {
  id: number;
  type: 'parse';
  formatId: string;
  content: Uint8Array;
  limits: ParseLimits;
  /** The translation's language code (category-keyed plural formats). */
  language?: string;
}

/** A chunk of the updated units of the `write` request with the same id, sent before it. */
export interface WriteUnitsChunk {
  id: number;
  type: 'write-units';
  units: UnitWrite[];
}

/**
 * `write`: FileFormat.write on `current` with the updates sent before plus `add`/`remove`.
 * `create`: FileFormat.create from `current` (new_base or template; null: the format's new-file content).
 */
export interface WriteRequest {
  id: number;
  type: 'write';
  mode: 'write' | 'create';
  formatId: string;
  current: Uint8Array | null;
  add: UnitWrite[];
  remove: UnitKey[];
  context: StoreWriteContext;
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
  units: StoreUnit[];
}

export interface ParseDone {
  id: number;
  type: 'done';
  /** Contexts of skipped duplicate entries, at most MAX_REPORTED_DUPLICATES of them. */
  duplicates: string[];
  duplicateCount: number;
  plural?: PluralDeclaration;
  language?: string;
}

export interface Written {
  id: number;
  type: 'written';
  /** null: `create` has no content for this format without a base (adding a language is refused). */
  content: Uint8Array | null;
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
