// A streaming variant of xml-tokenizer.ts's `readXmlDocument` for files of many similar entries (TS messages,
// RESX `<data>`, stringsdict top-level entries). The whole tree of a 50,000-entry file costs most of a parse in
// object retention and garbage collection; here each entry's subtree is handed to a callback as soon as it
// ends and kept only when the callback asks for it (the entries a write changes), so a parse keeps the units and
// a write keeps little more than the entries it patches (FORMATS-BRIEF performance: one-edit write < 200 ms).
//
// The same well-formedness checks as readXmlDocument apply (one root, matched tags, bounded depth, no text
// outside the root, declaration first, DOCTYPE before the root). Outside entries, whitespace and comments after
// an element's first child element are not kept: no reader needs them (lxml's `.text` is the leading text only).

import { FormatParseError } from '../format';
import {
  DEFAULT_MAX_DEPTH,
  XmlTokenizer,
  type XmlDoctype,
  type XmlDocument,
  type XmlElement,
  type XmlNode,
  type XmlProcessingInstruction,
} from './xml-tokenizer';

export interface SparseHandlers {
  /** Whether an element (its parent already known) starts an entry; decided at its start tag. */
  isEntry(element: XmlElement): boolean;
  /**
   * Called when an entry ends, with its complete subtree. Return true to keep the subtree; otherwise the entry
   * stays in its parent's children without children of its own (offsets and attributes still right).
   */
  onEntry(element: XmlElement): boolean;
}

function hasElementChild(element: XmlElement): boolean {
  const children = element.children;
  for (let index = children.length - 1; index >= 0; index -= 1) if (children[index].kind === 'element') return true;
  return false;
}

export function readSparseXml(source: string, handlers: SparseHandlers, maxDepth = DEFAULT_MAX_DEPTH): XmlDocument {
  const tokenizer: XmlTokenizer = new XmlTokenizer(source);
  const prolog: XmlNode[] = [];
  let doctype: XmlDoctype | null = null;
  let declaration: XmlProcessingInstruction | null = null;
  let root: XmlElement | null = null;
  let current: XmlElement | null = null;
  /** Depth of the entry being built (0 outside entries): inside it every node is kept until it ends. */
  let entryDepth = 0;
  let first = true;

  const keepsNode = (parent: XmlElement, node: XmlNode): boolean =>
    entryDepth > 0 || node.kind === 'element' || !hasElementChild(parent);

  for (let token = tokenizer.next(); token !== null; token = tokenizer.next()) {
    const isFirst = first;
    first = false;
    switch (token.kind) {
      case 'start': {
        if (!current && root) tokenizer.fail(token.start, 'content after the root element');
        const depth = current ? current.depth + 1 : 1;
        if (depth > maxDepth) tokenizer.fail(token.start, `elements nested deeper than ${maxDepth}`);
        const colon = token.name.indexOf(':');
        const element: XmlElement = {
          kind: 'element',
          name: token.name,
          prefix: colon === -1 ? '' : token.name.slice(0, colon),
          localName: colon === -1 ? token.name : token.name.slice(colon + 1),
          attributes: token.attributes,
          children: [],
          parent: current,
          selfClosing: token.selfClosing,
          start: token.start,
          end: token.end,
          startTagEnd: token.end,
          endTagStart: token.end,
          line: token.line,
          depth,
        };
        if (current) current.children.push(element);
        else root = element;
        const startsEntry = entryDepth === 0 && current !== null && handlers.isEntry(element);
        if (token.selfClosing) {
          if (startsEntry && !handlers.onEntry(element)) element.children = [];
        } else {
          if (startsEntry) entryDepth = depth;
          current = element;
        }
        break;
      }
      case 'end': {
        if (!current) tokenizer.fail(token.start, `unexpected end tag </${token.name}>`);
        if (current.name !== token.name) {
          tokenizer.fail(token.start, `end tag </${token.name}> does not match <${current.name}> of line ${current.line}`);
        }
        current.endTagStart = token.start;
        current.end = token.end;
        if (current.depth === entryDepth) {
          entryDepth = 0;
          if (!handlers.onEntry(current)) current.children = [];
        }
        current = current.parent;
        break;
      }
      case 'doctype':
        if (root || doctype) tokenizer.fail(token.start, 'misplaced DOCTYPE');
        doctype = token;
        break;
      case 'pi':
        if (token.target.toLowerCase() === 'xml') {
          if (!isFirst) tokenizer.fail(token.start, 'XML declaration must be at the very start');
          declaration = token;
        }
        if (current) {
          if (keepsNode(current, token)) current.children.push(token);
        } else if (!root) prolog.push(token);
        break;
      default:
        if (current) {
          if (keepsNode(current, token)) current.children.push(token);
        } else if (token.kind === 'text' && token.text.trim() === '') {
          if (!root) prolog.push(token);
        } else if (token.kind === 'comment') {
          if (!root) prolog.push(token);
        } else tokenizer.fail(token.start, 'text outside the root element');
    }
  }
  if (current) tokenizer.fail(current.start, `element <${current.name}> is not closed`);
  if (!root) throw new FormatParseError('line 1: no root element');
  return { source, root, prolog, doctype, declaration, lineAt: (offset) => tokenizer.lineAt(offset) };
}
