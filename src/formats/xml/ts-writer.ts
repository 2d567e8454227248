// Qt Linguist `.ts` writer (formats.md §3.16 "States" and "Write-back"): patches the `<translation>` of each
// changed message (text, numerus forms, `type="unfinished"`), appends added messages to their `<context>` (or a
// new one at the end) and deletes removed ones; every other byte stays as it was.

import { FormatWriteError } from '../format';
import type { StoreChanges, StoreWriteContext, UnitKey, UnitWrite } from '../store';
import { applySplices, encodeXml } from './xml-encoding';
import { escapeXmlAttribute } from './xml-escape';
import { childElements, findAttribute, firstChildElement, getAttribute, type XmlElement } from './xml-tokenizer';
import { readTs, tsUnitKey, type KeepMessage, type TsFile, type TsMessage } from './ts-reader';
import {
  appendChildSplice,
  detectIndentUnit,
  elementText,
  fitForms,
  indentBefore,
  lineIndent,
  removalRange,
  textForFile,
  type Splice,
} from './xml2-common';

type Newline = '\n' | '\r\n';

/** Text as Qt Linguist writes it: & < > plus quotes and apostrophes as entities (translate-toolkit does too). */
function tsText(text: string, newline: Newline): string {
  return textForFile(text, newline).replace(/'/g, '&apos;').replace(/"/g, '&quot;');
}

/** Finds messages by Weblate's bilingual key (context + source) or, for template-based use, by the entry id. */
class MessageIndex {
  private readonly byKey = new Map<string, TsMessage>();
  private readonly byId = new Map<string, TsMessage>();

  constructor(file: TsFile) {
    for (const message of file.messages) {
      if (!message.unit) continue;
      const key = tsUnitKey(message.unit.context, message.unit.source);
      // The first of duplicated messages is the one Weblate's index finds.
      if (!this.byKey.has(key)) this.byKey.set(key, message);
      if (!this.byId.has(message.unit.monolingualContext)) this.byId.set(message.unit.monolingualContext, message);
    }
  }

  find(key: UnitKey): TsMessage | undefined {
    if (key.source.length > 0) {
      const found = this.byKey.get(tsUnitKey(key.context, key.source));
      if (found) return found;
    }
    return this.byId.get(key.context);
  }
}

/** What a new message is built from: the template's entry when it has one, else the unit key. */
interface MessageSpec {
  contextName: string;
  comment: string | undefined;
  id: string | undefined;
  source: string;
  numerus: boolean;
  locations: Array<{ filename: string; line: string | undefined }>;
}

function specFromTemplate(message: TsMessage): MessageSpec {
  const element = message.element;
  return {
    contextName: elementText(message.contextElement ? firstChildElement(message.contextElement, 'name') : undefined) ?? '',
    comment: elementText(firstChildElement(element, 'comment')),
    id: getAttribute(element, 'id'),
    source: elementText(firstChildElement(element, 'source')) ?? '',
    numerus: message.numerus,
    locations: childElements(element, 'location').map((location) => ({
      filename: getAttribute(location, 'filename') ?? '',
      line: getAttribute(location, 'line'),
    })),
  };
}

function specFromWrite(write: UnitWrite): MessageSpec {
  const newline = write.context.indexOf('\n');
  const locations = (write.location ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const colon = part.indexOf(':');
      return colon === -1 ? { filename: part, line: undefined } : { filename: part.slice(0, colon), line: part.slice(colon + 1) };
    });
  return {
    contextName: newline === -1 ? write.context : write.context.slice(0, newline),
    comment: newline === -1 ? undefined : write.context.slice(newline + 1),
    id: undefined,
    source: write.source[0] ?? '',
    // ts2 switches a message to numerus as soon as it gets more than one form.
    numerus: write.source.length > 1 || write.target.length > 1,
    locations,
  };
}

const wantsUnfinished = (state: UnitWrite['state']): boolean => state === 'fuzzy' || state === 'empty';

class TsPatcher {
  readonly splices: Splice[] = [];
  private readonly source: string;
  private readonly newline: Newline;
  private readonly unit: string;

  constructor(
    private readonly file: TsFile,
    private readonly context: StoreWriteContext,
  ) {
    this.source = file.doc.source;
    this.newline = file.newline;
    this.unit = detectIndentUnit(this.source, '    ');
  }

  private forms(message: { numerus: boolean }, target: readonly string[]): string[] {
    return message.numerus ? fitForms(target, Math.max(1, this.context.plural.number)) : [target[0] ?? ''];
  }

  /** The `<numerusform>` list; on separate lines unless the file keeps them on the translation's line. */
  private numerusContent(forms: readonly string[], translation: XmlElement | undefined, translationIndent: string): string {
    const existing = translation ? childElements(translation, 'numerusform') : [];
    const inner = translation ? this.source.slice(translation.startTagEnd, translation.endTagStart) : '';
    const items = forms.map((form) => `<numerusform>${tsText(form, this.newline)}</numerusform>`);
    if (existing.length > 0 && !inner.includes('\n')) return items.join('');
    const formIndent = (existing.length > 0 && indentBefore(this.source, existing[0].start)) || translationIndent + this.unit;
    return items.map((item) => `${this.newline}${formIndent}${item}`).join('') + this.newline + translationIndent;
  }

  /** Patches one message's translation; nothing when the file already says the same. */
  update(message: TsMessage, write: UnitWrite): void {
    const unit = message.unit;
    if (!unit) return;
    const forms = this.forms(message, write.target);
    const unfinished = wantsUnfinished(write.state);
    const currentState = unit.fuzzy ? 'fuzzy' : message.type === 'unfinished' ? 'empty' : 'translated';
    const wantedState = write.state === 'fuzzy' || write.state === 'empty' ? write.state : 'translated';
    if (currentState === wantedState && unit.target.join('\x00') === forms.join('\x00')) return;

    const translation = message.translation;
    const indent = translation ? lineIndent(this.source, translation.start) : lineIndent(this.source, message.element.start) + this.unit;
    const content = message.numerus ? this.numerusContent(forms, translation, indent) : tsText(forms[0], this.newline);
    if (!translation) {
      const block = `<translation${unfinished ? ' type="unfinished"' : ''}>${content}</translation>`;
      this.splices.push(appendChildSplice(this.source, message.element, block, indent, this.newline));
      return;
    }
    const nameEnd = translation.start + 1 + translation.name.length;
    const typeAttribute = findAttribute(translation, 'type');
    if (translation.selfClosing) {
      const kept = translation.attributes.filter((attribute) => attribute !== typeAttribute);
      const attributes = kept.map((attribute) => ` ${this.source.slice(attribute.start, attribute.end)}`).join('');
      const text = `<${translation.name}${attributes}${unfinished ? ' type="unfinished"' : ''}>${content}</${translation.name}>`;
      this.splices.push({ start: translation.start, end: translation.end, text });
      return;
    }
    if (unfinished && !typeAttribute) {
      const last = translation.attributes[translation.attributes.length - 1];
      const at = last ? last.end : nameEnd;
      this.splices.push({ start: at, end: at, text: ' type="unfinished"' });
    } else if (unfinished && typeAttribute && typeAttribute.value !== 'unfinished') {
      this.splices.push({ start: typeAttribute.valueStart, end: typeAttribute.valueEnd, text: 'unfinished' });
    } else if (!unfinished && typeAttribute) {
      const index = translation.attributes.indexOf(typeAttribute);
      const from = index > 0 ? translation.attributes[index - 1].end : nameEnd;
      this.splices.push({ start: from, end: typeAttribute.end, text: '' });
    }
    this.splices.push({ start: translation.startTagEnd, end: translation.endTagStart, text: content });
  }

  remove(message: TsMessage): void {
    this.splices.push(removalRange(this.source, message.element.start, message.element.end));
  }

  /** One new `<message>`, lines after the first indented for `messageIndent`. */
  private messageBlock(spec: MessageSpec, write: UnitWrite, messageIndent: string): string {
    const nl = this.newline;
    const inner = messageIndent + this.unit;
    const attribute = (value: string): string => escapeXmlAttribute(value);
    const lines = [`<message${spec.id !== undefined ? ` id="${attribute(spec.id)}"` : ''}${spec.numerus ? ' numerus="yes"' : ''}>`];
    for (const location of spec.locations) {
      const line = location.line !== undefined ? ` line="${attribute(location.line)}"` : '';
      lines.push(`${inner}<location filename="${attribute(location.filename)}"${line}/>`);
    }
    lines.push(`${inner}<source>${tsText(spec.source, nl)}</source>`);
    if (spec.comment) lines.push(`${inner}<comment>${tsText(spec.comment, nl)}</comment>`);
    if (write.note) lines.push(`${inner}<extracomment>${tsText(write.note, nl)}</extracomment>`);
    const forms = this.forms(spec, write.target);
    const type = wantsUnfinished(write.state) || forms[0] === '' ? ' type="unfinished"' : '';
    const content = spec.numerus ? this.numerusContent(forms, undefined, inner) : tsText(forms[0], nl);
    lines.push(`${inner}<translation${type}>${content}</translation>`);
    lines.push(`${messageIndent}</message>`);
    return lines.join(nl);
  }

  /** Appends messages to the first `<context>` of their name, or to a new context at the end of the file. */
  add(items: ReadonlyArray<{ spec: MessageSpec; write: UnitWrite }>): void {
    const root = this.file.doc.root;
    const contexts = childElements(root, 'context');
    const byName = new Map<string, XmlElement>();
    for (const context of contexts) {
      const name = elementText(firstChildElement(context, 'name')) ?? '';
      if (!byName.has(name)) byName.set(name, context);
    }
    const groups = new Map<string, Array<{ spec: MessageSpec; write: UnitWrite }>>();
    for (const item of items) groups.set(item.spec.contextName, [...(groups.get(item.spec.contextName) ?? []), item]);

    const contextIndent = contexts.length > 0 ? lineIndent(this.source, contexts[0].start) : '';
    for (const [name, group] of groups) {
      const existing = byName.get(name);
      if (existing) {
        const sibling = childElements(existing, 'message')[0] ?? firstChildElement(existing, 'name');
        const indent = sibling ? lineIndent(this.source, sibling.start) : lineIndent(this.source, existing.start) + this.unit;
        const block = group.map((item) => this.messageBlock(item.spec, item.write, indent)).join(this.newline + indent);
        this.splices.push(appendChildSplice(this.source, existing, block, indent, this.newline));
        continue;
      }
      const indent = contextIndent + this.unit;
      const lines = [`<context>`, `${indent}<name>${tsText(name, this.newline)}</name>`];
      for (const item of group) lines.push(indent + this.messageBlock(item.spec, item.write, indent));
      lines.push(`${contextIndent}</context>`);
      this.splices.push(appendChildSplice(this.source, root, lines.join(this.newline), contextIndent, this.newline));
    }
  }

  /** Sets `<TS language="...">` (translate-toolkit's settargetlanguage on a new file). */
  setLanguage(code: string): void {
    const root = this.file.doc.root;
    const existing = findAttribute(root, 'language');
    if (existing) {
      this.splices.push({ start: existing.valueStart, end: existing.valueEnd, text: escapeXmlAttribute(code, existing.quote) });
      return;
    }
    const last = root.attributes[root.attributes.length - 1];
    const at = last ? last.end : root.start + 1 + root.name.length;
    this.splices.push({ start: at, end: at, text: ` language="${escapeXmlAttribute(code)}"` });
  }

  result(): Buffer {
    return encodeXml(applySplices(this.source, this.splices), this.file.decoded);
  }
}

function readForWrite(content: Buffer, keep: KeepMessage): TsFile {
  // Duplicates are an import problem; writing touches the first of them, as Weblate's index does.
  return readTs(content, { onDuplicate: () => undefined }, keep, true);
}

/** Keeps the subtrees of the messages `keys` name (by bilingual key or by id), the only ones a write touches. */
function keepNamed(keys: readonly UnitKey[]): KeepMessage {
  const byKey = new Set<string>();
  const byId = new Set<string>();
  for (const key of keys) {
    if (key.source.length > 0) byKey.add(tsUnitKey(key.context, key.source));
    byId.add(key.context);
  }
  return (unit) => unit !== null && (byKey.has(tsUnitKey(unit.context, unit.source)) || byId.has(unit.monolingualContext));
}

export function writeTs(current: Buffer, changes: StoreChanges, context: StoreWriteContext): Buffer {
  const keep = keepNamed([...changes.update, ...(changes.add ?? []), ...(changes.remove ?? [])]);
  const file = readForWrite(current, keep);
  const index = new MessageIndex(file);
  const templateIndex = context.template ? new MessageIndex(readForWrite(context.template, keep)) : null;
  const patcher = new TsPatcher(file, context);

  const removed = new Set<TsMessage>();
  for (const key of changes.remove ?? []) {
    const message = index.find(key);
    if (message && !removed.has(message)) removed.add(message);
  }
  const updates = new Map<TsMessage, UnitWrite>();
  const additions: Array<{ spec: MessageSpec; write: UnitWrite }> = [];
  const added = new Set<string>();
  for (const write of [...changes.update, ...(changes.add ?? [])]) {
    const message = index.find(write);
    if (message) {
      if (!removed.has(message)) updates.set(message, write);
      continue;
    }
    const templateMessage = templateIndex?.find(write);
    const spec = templateMessage ? specFromTemplate(templateMessage) : specFromWrite(write);
    const key = `${spec.contextName}\u0004${spec.comment ?? ''}\u0004${spec.source}`;
    if (added.has(key)) throw new FormatWriteError(`the string "${spec.source}" is added twice`);
    added.add(key);
    additions.push({ spec, write });
  }
  for (const message of removed) patcher.remove(message);
  for (const [message, write] of updates) patcher.update(message, write);
  patcher.add(additions);
  return patcher.result();
}

/** A new translation from `base` (formats.md §2.4): language set, every live translation emptied and unfinished. */
export function createTs(base: Buffer, context: StoreWriteContext): Buffer {
  const file = readForWrite(base, () => true);
  const patcher = new TsPatcher(file, context);
  patcher.setLanguage(context.languageCode);
  for (const message of file.messages) {
    if (!message.unit) continue;
    patcher.update(message, { context: message.unit.context, source: message.unit.source, target: [''], state: 'empty' });
  }
  return patcher.result();
}
