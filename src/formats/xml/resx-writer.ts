// .NET RESX writer (formats.md §3.13 "Write-back"): replaces the `<value>` of changed entries, appends new
// `<data>` entries at the end of `<root>` (a copy of the template's entry, with `xml:space="preserve"`), and
// deletes removed ones. Weblate re-indents the whole tree; Glossa leaves every other byte as it was.

import type { StoreChanges, StoreWriteContext, UnitWrite } from '../store';
import { applySplices, encodeXml } from './xml-encoding';
import { escapeXmlAttribute } from './xml-escape';
import { childElements, findAttribute } from './xml-tokenizer';
import { readResx, type ResxEntry, type ResxFile } from './resx-reader';
import {
  appendChildSplice,
  detectIndentUnit,
  lineIndent,
  removalRange,
  replaceContentSplice,
  textForFile,
  type Splice,
} from './xml2-common';

function readForWrite(content: Buffer, keep: (name: string) => boolean): ResxFile {
  return readResx(content, { onDuplicate: () => undefined }, keep, true);
}

function entriesByName(file: ResxFile): Map<string, ResxEntry> {
  const byName = new Map<string, ResxEntry>();
  // The first of repeated names is the unit (formats.md §2.1 duplicates).
  for (const entry of file.entries) if (entry.unit && !byName.has(entry.name)) byName.set(entry.name, entry);
  return byName;
}

class ResxPatcher {
  readonly splices: Splice[] = [];
  private readonly source: string;
  private readonly step: string;
  private readonly dataIndent: string;

  constructor(private readonly file: ResxFile) {
    this.source = file.doc.source;
    this.step = detectIndentUnit(this.source, '  ');
    const firstChild = childElements(file.doc.root)[0];
    this.dataIndent = firstChild ? lineIndent(this.source, firstChild.start) : lineIndent(this.source, file.doc.root.start) + this.step;
  }

  setValue(entry: ResxEntry, text: string): void {
    const content = textForFile(text, this.file.newline);
    if (entry.value) {
      this.splices.push(replaceContentSplice(this.source, entry.value, content));
      return;
    }
    const indent = lineIndent(this.source, entry.element.start) + this.step;
    this.splices.push(appendChildSplice(this.source, entry.element, `<value>${content}</value>`, indent, this.file.newline));
  }

  remove(entry: ResxEntry): void {
    this.splices.push(removalRange(this.source, entry.element.start, entry.element.end));
  }

  /** New `<data>` entries appended to `<root>`: the template entry's attributes, the value and the note. */
  add(writes: ReadonlyArray<{ write: UnitWrite; template: ResxEntry | undefined; templateSource: string }>): void {
    if (writes.length === 0) return;
    const nl = this.file.newline;
    const inner = this.dataIndent + this.step;
    const blocks = writes.map(({ write, template, templateSource }) => {
      let attributes = ` name="${escapeXmlAttribute(write.context)}"`;
      if (template) {
        attributes = template.element.attributes.map((attribute) => ` ${templateSource.slice(attribute.start, attribute.end)}`).join('');
      }
      if (!template || !findAttribute(template.element, 'xml:space')) attributes += ' xml:space="preserve"';
      const lines = [`<data${attributes}>`, `${inner}<value>${textForFile(write.target[0] ?? '', nl)}</value>`];
      if (write.note) lines.push(`${inner}<comment>${textForFile(write.note, nl)}</comment>`);
      lines.push(`${this.dataIndent}</data>`);
      return lines.join(nl);
    });
    this.splices.push(appendChildSplice(this.source, this.file.doc.root, blocks.join(nl + this.dataIndent), this.dataIndent, nl));
  }

  result(): Buffer {
    return encodeXml(applySplices(this.source, this.splices), this.file.decoded);
  }
}

export function writeResx(current: Buffer, changes: StoreChanges, context: StoreWriteContext): Buffer {
  const named = new Set([...changes.update, ...(changes.add ?? []), ...(changes.remove ?? [])].map((key) => key.context));
  const keep = (name: string): boolean => named.has(name);
  const file = readForWrite(current, keep);
  const byName = entriesByName(file);
  const template = context.template ? readForWrite(context.template, keep) : null;
  const templateByName = template ? entriesByName(template) : new Map<string, ResxEntry>();
  const patcher = new ResxPatcher(file);

  const removed = new Set<string>();
  for (const key of changes.remove ?? []) {
    const entry = byName.get(key.context);
    if (entry && !removed.has(key.context)) {
      removed.add(key.context);
      patcher.remove(entry);
    }
  }
  const updates = new Map<string, UnitWrite>();
  const additions = new Map<string, UnitWrite>();
  for (const write of [...changes.update, ...(changes.add ?? [])]) {
    if (removed.has(write.context)) continue;
    if (byName.has(write.context)) updates.set(write.context, write);
    else additions.set(write.context, write);
  }
  for (const [name, write] of updates) {
    const entry = byName.get(name) as ResxEntry;
    const text = write.target[0] ?? '';
    if (entry.unit?.target[0] !== text) patcher.setValue(entry, text);
  }
  patcher.add(
    [...additions.values()].map((write) => ({ write, template: templateByName.get(write.context), templateSource: template?.doc.source ?? '' })),
  );
  return patcher.result();
}

/** A new translation from `base`: every value emptied, the rest (schema, resheaders, comments) kept. */
export function createResx(base: Buffer): Buffer {
  const file = readForWrite(base, () => true);
  const patcher = new ResxPatcher(file);
  for (const entry of file.entries) if (entry.unit && entry.unit.target[0] !== '') patcher.setValue(entry, '');
  return patcher.result();
}
