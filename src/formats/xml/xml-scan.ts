// Scanning large XML files for writers: the same well-formedness checks as readXmlDocument, but only the
// elements a writer may patch are kept, without building the tree (building it dominates the cost of a
// 50,000-unit file); the few elements that change are then read in full with readScannedElement.

import { FormatParseError } from '../format';
import { DEFAULT_MAX_DEPTH, XmlTokenizer, readXmlDocument, type XmlDocument, type XmlElement, type XmlReadOptions } from './xml-tokenizer';

export interface XmlScan {
  source: string;
  /** The root element: attributes and offsets, no children. */
  root: XmlElement;
  /** The kept elements in document order: attributes and offsets, no children, `parent` null. */
  elements: XmlElement[];
  lineAt(offset: number): number;
}

/**
 * Checks a whole document like readXmlDocument but keeps only the elements `keep` selects, without building
 * the tree: writers use it to find the few elements they patch in a large file in about the time of one
 * tokenizer pass (short-lived tokens), then read just those elements with readXmlDocument.
 */
export function scanXmlDocument(
  source: string,
  keep: (name: string, depth: number) => boolean,
  options: XmlReadOptions = {},
): XmlScan {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const tokenizer: XmlTokenizer = new XmlTokenizer(source);
  const open: XmlElement[] = [];
  const elements: XmlElement[] = [];
  let root: XmlElement | null = null;
  for (let token = tokenizer.next(); token !== null; token = tokenizer.next()) {
    if (token.kind === 'start') {
      if (open.length === 0 && root) tokenizer.fail(token.start, 'content after the root element');
      const depth = open.length + 1;
      if (depth > maxDepth) tokenizer.fail(token.start, `elements nested deeper than ${maxDepth}`);
      const element = token as unknown as XmlElement;
      element.kind = 'element';
      element.depth = depth;
      if (depth === 1) root = element;
      else if (keep(element.name, depth)) elements.push(element);
      if (!token.selfClosing) open.push(element);
    } else if (token.kind === 'end') {
      const current = open.pop();
      if (!current) tokenizer.fail(token.start, `unexpected end tag </${token.name}>`);
      if (current.name !== token.name) {
        tokenizer.fail(token.start, `end tag </${token.name}> does not match <${current.name}> of line ${current.line}`);
      }
      current.endTagStart = token.start;
      current.end = token.end;
    } else if (open.length === 0) {
      if (token.kind === 'text' && token.text.trim() !== '') tokenizer.fail(token.start, 'text outside the root element');
      if (token.kind === 'doctype' && root) tokenizer.fail(token.start, 'misplaced DOCTYPE');
    }
  }
  const unclosed = open.pop();
  if (unclosed) tokenizer.fail(unclosed.start, `element <${unclosed.name}> is not closed`);
  if (!root) throw new FormatParseError('line 1: no root element');
  return { source, root, elements, lineAt: (offset) => tokenizer.lineAt(offset) };
}

/**
 * Reads one element of a scanned document as a small document of its own (wrapped in a copy of the root's
 * start tag, so namespace declarations still resolve), and returns it with the offset that maps its
 * positions back into `scan.source`. The element's own line (indentation) is included.
 */
export function readScannedElement(scan: XmlScan, element: XmlElement): { document: XmlDocument; element: XmlElement; delta: number } {
  const source = scan.source;
  let lineStart = element.start;
  while (lineStart > 0 && (source[lineStart - 1] === ' ' || source[lineStart - 1] === '\t')) lineStart -= 1;
  const head = `${source.slice(scan.root.start, scan.root.startTagEnd).replace(/\/>$/, '>')}\n`;
  const text = `${head}${source.slice(lineStart, element.end)}</${scan.root.name}>`;
  const document = readXmlDocument(text);
  const inner = document.root.children.find((node): node is XmlElement => node.kind === 'element');
  if (!inner) throw new FormatParseError(`line ${element.line}: cannot re-read <${element.name}>`);
  return { document, element: inner, delta: lineStart - head.length };
}
