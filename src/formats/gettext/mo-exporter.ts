// The `mo` converted download (formats.md §4): a compiled gettext catalog, little-endian, with a hash table
// as msgfmt writes one. Only translated units (state >= 20) go in; the header is the `po` export's header.
// In monolingual components the context is the msgid (no msgctxt), as Weblate's MoExporter does.

import type { ExportContext, Exporter, ExportUnit } from '../store';
import { exportHeaderFields } from './po-exporter';
import { headerText } from './po-header';

const MO_MAGIC = 0x950412de;
const HEADER_SIZE = 28;
const TRANSLATED_STATE = 20;

/** gettext's hash_string (hashpjw over the bytes, up to the first NUL). */
function hashString(bytes: Buffer): number {
  let hash = 0;
  for (const byte of bytes) {
    if (byte === 0) break;
    hash = ((hash << 4) + byte) >>> 0;
    const high = hash & 0xf0000000;
    if (high !== 0) hash = (hash ^ (high >>> 24) ^ high) >>> 0;
  }
  return hash >>> 0;
}

function isPrime(value: number): boolean {
  if (value < 2) return false;
  for (let divisor = 2; divisor * divisor <= value; divisor++) if (value % divisor === 0) return false;
  return true;
}

/** msgfmt's table size: the next prime from 4/3 of the entry count, at least 3. */
function hashTableSize(count: number): number {
  let size = Math.max(3, Math.floor((count * 4) / 3));
  while (!isPrime(size)) size++;
  return size;
}

interface MoMessage {
  key: Buffer;
  value: Buffer;
}

function messageOf(unit: ExportUnit, context: ExportContext): MoMessage {
  const plural = unit.target.length > 1 || unit.source.length > 1;
  const msgid = context.monolingual ? unit.context : (unit.source[0] ?? '');
  const msgctxt = context.monolingual ? '' : unit.context;
  let key = msgctxt ? `${msgctxt}\u0004${msgid}` : msgid;
  if (plural) key += `\u0000${context.monolingual ? msgid : (unit.source[1] ?? msgid)}`;
  const forms = plural ? Array.from({ length: context.plural.number }, (_, i) => unit.target[i] ?? '') : [unit.target[0] ?? ''];
  return { key: Buffer.from(key, 'utf8'), value: Buffer.from(forms.join('\u0000'), 'utf8') };
}

export function compileMo(messages: MoMessage[]): Buffer {
  const sorted = [...messages].sort((a, b) => Buffer.compare(a.key, b.key));
  const count = sorted.length;
  const hashSize = hashTableSize(count);
  const originalsAt = HEADER_SIZE;
  const translationsAt = originalsAt + count * 8;
  const hashAt = translationsAt + count * 8;
  let stringsAt = hashAt + hashSize * 4;
  const tables = Buffer.alloc(stringsAt);
  tables.writeUInt32LE(MO_MAGIC, 0);
  tables.writeUInt32LE(0, 4);
  tables.writeUInt32LE(count, 8);
  tables.writeUInt32LE(originalsAt, 12);
  tables.writeUInt32LE(translationsAt, 16);
  tables.writeUInt32LE(hashSize, 20);
  tables.writeUInt32LE(hashAt, 24);
  const strings: Buffer[] = [];
  const place = (bytes: Buffer, tableAt: number): void => {
    tables.writeUInt32LE(bytes.length, tableAt);
    tables.writeUInt32LE(stringsAt, tableAt + 4);
    strings.push(bytes, Buffer.alloc(1));
    stringsAt += bytes.length + 1;
  };
  sorted.forEach((message, index) => place(message.key, originalsAt + index * 8));
  sorted.forEach((message, index) => place(message.value, translationsAt + index * 8));
  sorted.forEach((message, index) => {
    const hash = hashString(message.key);
    let slot = hash % hashSize;
    const step = 1 + (hash % (hashSize - 2));
    while (tables.readUInt32LE(hashAt + slot * 4) !== 0) slot = slot >= hashSize - step ? slot - (hashSize - step) : slot + step;
    tables.writeUInt32LE(index + 1, hashAt + slot * 4);
  });
  return Buffer.concat([tables, ...strings]);
}

export function exportMo(units: readonly ExportUnit[], context: ExportContext): Buffer {
  const header = headerText(exportHeaderFields(context));
  const messages: MoMessage[] = [{ key: Buffer.alloc(0), value: Buffer.from(header, 'utf8') }];
  const seen = new Set<string>();
  for (const unit of units) {
    if (unit.state < TRANSLATED_STATE) continue;
    const message = messageOf(unit, context);
    const id = message.key.toString('latin1');
    if (message.key.length === 0 || seen.has(id)) continue;
    seen.add(id);
    messages.push(message);
  }
  return compileMo(messages);
}

export const MO_EXPORTER: Exporter = {
  id: 'mo',
  extension: 'mo',
  contentType: 'application/x-gettext-catalog',
  accepts: (componentFormat) => componentFormat === 'po' || componentFormat === 'po-mono',
  export: exportMo,
};

