// A small position-preserving XML reader shared by every XML format (aresource, xliff, poxliff, ts, resx,
// stringsdict). Writers patch the original text (issue 11 item 3), so every node records where it starts and
// ends: offsets are UTF-16 code-unit indices into the decoded document string (see xml-encoding.ts), so a
// writer splices that string and encodes it back with the file's own encoding.
//
// Why an own reader instead of a DOM library: DOM parsers (xmldom, sax) either drop offsets or re-serialise
// whole documents, and several resolve DTD entities. This one is linear (one forward scan, indexOf-based),
// iterative (no recursion; nesting bounded by `maxDepth`), knows only the five predefined entities and
// numeric references, and refuses any DOCTYPE that declares entities (XXE, billion laughs).

import { FormatParseError } from '../format';

export interface XmlAttribute {
  /** Qualified name as written, e.g. `xml:space`. */
  name: string;
  /** Decoded, attribute-value-normalised value (XML 1.0 §3.3.3). */
  value: string;
  /** Offset of the attribute name. */
  start: number;
  /** Offset just after the closing quote. */
  end: number;
  /** Offset of the first character inside the quotes. */
  valueStart: number;
  /** Offset of the closing quote. */
  valueEnd: number;
  quote: '"' | "'";
}

interface NodeBase {
  /** Offset of the node's first character. */
  start: number;
  /** Offset just after the node's last character. */
  end: number;
  /** 1-based line of `start`. */
  line: number;
}

export interface XmlElement extends NodeBase {
  kind: 'element';
  /** Qualified name as written, e.g. `xliff:g`. */
  name: string;
  /** Name without its prefix, e.g. `g`. */
  localName: string;
  /** Prefix, or "" for none. */
  prefix: string;
  attributes: XmlAttribute[];
  children: XmlNode[];
  parent: XmlElement | null;
  selfClosing: boolean;
  /** Offset just after the `>` of the start tag (== end for a self-closing element). */
  startTagEnd: number;
  /** Offset of the `<` of the end tag (== end for a self-closing element). */
  endTagStart: number;
  /** Nesting depth: the root element is 1. */
  depth: number;
}

export interface XmlText extends NodeBase {
  kind: 'text';
  /** Decoded text (entities resolved, line ends normalised to "\n"). */
  text: string;
}

export interface XmlCData extends NodeBase {
  kind: 'cdata';
  /** Content between `<![CDATA[` and `]]>`, line ends normalised. */
  text: string;
}

export interface XmlComment extends NodeBase {
  kind: 'comment';
  /** Content between `<!--` and `-->`, as written. */
  text: string;
}

export interface XmlProcessingInstruction extends NodeBase {
  kind: 'pi';
  target: string;
  data: string;
}

export interface XmlDoctype extends NodeBase {
  kind: 'doctype';
  /** Everything between `<!DOCTYPE` and the final `>`. */
  text: string;
}

export type XmlNode = XmlElement | XmlText | XmlCData | XmlComment | XmlProcessingInstruction;

/** Start/end tags as the tokenizer reports them, before they are paired into elements. */
export interface XmlStartTagToken extends NodeBase {
  kind: 'start';
  name: string;
  attributes: XmlAttribute[];
  selfClosing: boolean;
}

export interface XmlEndTagToken extends NodeBase {
  kind: 'end';
  name: string;
}

export type XmlToken =
  | XmlStartTagToken
  | XmlEndTagToken
  | XmlText
  | XmlCData
  | XmlComment
  | XmlProcessingInstruction
  | XmlDoctype;

export interface XmlReadOptions {
  /** Deepest element nesting accepted (default 256); deeper input is a FormatParseError. */
  maxDepth?: number;
}

export interface XmlDocument {
  /** The decoded text the offsets refer to. */
  source: string;
  root: XmlElement;
  /** Comments, PIs (incl. the XML declaration) and whitespace before the root element. */
  prolog: XmlNode[];
  doctype: XmlDoctype | null;
  /** The `<?xml ...?>` declaration, when present. */
  declaration: XmlProcessingInstruction | null;
  /** 1-based line of any offset. */
  lineAt(offset: number): number;
}

export const DEFAULT_MAX_DEPTH = 256;

// Shared, frozen empty lists for elements without attributes or children: most leaves have none, and a
// 50,000-unit file would otherwise retain hundreds of thousands of empty arrays (see readXmlDocument).
const NO_ATTRIBUTES: XmlAttribute[] = Object.freeze([]) as unknown as XmlAttribute[];
const NO_CHILDREN: XmlNode[] = Object.freeze([]) as unknown as XmlNode[];

function addChild(parent: XmlElement, child: XmlNode): void {
  if (parent.children === NO_CHILDREN) parent.children = [child];
  else parent.children.push(child);
}

/** Maps offsets to 1-based lines in O(log lines); built once per document in O(length). */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    let at = text.indexOf('\n');
    while (at !== -1) {
      this.starts.push(at + 1);
      at = text.indexOf('\n', at + 1);
    }
  }

  lineAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }
}

const PREDEFINED_ENTITIES: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
};

// XML 1.0 §2.2 Char: tab, LF, CR and U+0020 upwards minus surrogates' misuse and U+FFFE/U+FFFF.
 
const FORBIDDEN_CHAR = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/;

function isNameStartCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    code === 0x5f ||
    code === 0x3a ||
    code >= 0xc0
  );
}

function isNameCode(code: number): boolean {
  return isNameStartCode(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e || code === 0xb7;
}

function isSpaceCode(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isXmlCodePoint(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/**
 * Streams the tokens of `source` in document order. Tag pairing, depth and the single-root rule are checked
 * by `readXmlDocument`; this only checks each token's own syntax.
 */
export class XmlTokenizer {
  private position = 0;
  private readonly lines: LineIndex;
  private readonly names = new Map<number, string[]>();

  constructor(private readonly source: string) {
    this.lines = new LineIndex(source);
    const bad = FORBIDDEN_CHAR.exec(source);
    if (bad) this.fail(bad.index, `character U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} is not allowed in XML`);
  }

  lineAt(offset: number): number {
    return this.lines.lineAt(offset);
  }

  fail(offset: number, problem: string): never {
    throw new FormatParseError(`line ${this.lines.lineAt(offset)}: ${problem}`);
  }

  /** The next token, or null at the end of input. */
  next(): XmlToken | null {
    const source = this.source;
    const start = this.position;
    if (start >= source.length) return null;
    if (source.charCodeAt(start) !== 0x3c /* < */) return this.readText(start);
    if (source.startsWith('<!--', start)) return this.readComment(start);
    if (source.startsWith('<![CDATA[', start)) return this.readCData(start);
    if (source.startsWith('<!DOCTYPE', start)) return this.readDoctype(start);
    if (source.startsWith('<?', start)) return this.readProcessingInstruction(start);
    if (source.startsWith('</', start)) return this.readEndTag(start);
    return this.readStartTag(start);
  }

  private readText(start: number): XmlText {
    const source = this.source;
    let end = source.indexOf('<', start);
    if (end === -1) end = source.length;
    this.position = end;
    const raw = source.slice(start, end);
    const closing = raw.indexOf(']]>');
    if (closing !== -1) this.fail(start + closing, '"]]>" is not allowed in text');
    return { kind: 'text', text: decodeCharacterData(raw, start, this), start, end, line: this.lines.lineAt(start) };
  }

  private readComment(start: number): XmlComment {
    const close = this.source.indexOf('--', start + 4);
    if (close === -1) this.fail(start, 'unterminated comment');
    if (this.source.charCodeAt(close + 2) !== 0x3e) this.fail(close, '"--" is not allowed inside a comment');
    this.position = close + 3;
    return {
      kind: 'comment',
      text: this.source.slice(start + 4, close),
      start,
      end: close + 3,
      line: this.lines.lineAt(start),
    };
  }

  private readCData(start: number): XmlCData {
    const close = this.source.indexOf(']]>', start + 9);
    if (close === -1) this.fail(start, 'unterminated CDATA section');
    this.position = close + 3;
    return {
      kind: 'cdata',
      text: normaliseLineEnds(this.source.slice(start + 9, close)),
      start,
      end: close + 3,
      line: this.lines.lineAt(start),
    };
  }

  private readDoctype(start: number): XmlDoctype {
    // Scan to the `>` that closes the declaration, skipping quoted literals and the internal subset.
    const source = this.source;
    let at = start + 9;
    let inSubset = false;
    while (at < source.length) {
      const char = source[at];
      if (char === '"' || char === "'") {
        const close = source.indexOf(char, at + 1);
        if (close === -1) break;
        at = close + 1;
        continue;
      }
      if (char === '[') inSubset = true;
      else if (char === ']') inSubset = false;
      else if (char === '<' && inSubset && source.startsWith('<!ENTITY', at)) {
        this.fail(at, 'entity declarations are not allowed (DOCTYPE with <!ENTITY>)');
      } else if (char === '>' && !inSubset) {
        this.position = at + 1;
        return { kind: 'doctype', text: source.slice(start + 9, at), start, end: at + 1, line: this.lines.lineAt(start) };
      }
      at += 1;
    }
    this.fail(start, 'unterminated DOCTYPE');
  }

  private readProcessingInstruction(start: number): XmlProcessingInstruction {
    const close = this.source.indexOf('?>', start + 2);
    if (close === -1) this.fail(start, 'unterminated processing instruction');
    let nameEnd = start + 2;
    if (!isNameStartCode(this.source.charCodeAt(nameEnd))) this.fail(start, 'processing instruction without a target');
    while (nameEnd < close && isNameCode(this.source.charCodeAt(nameEnd))) nameEnd += 1;
    const target = this.source.slice(start + 2, nameEnd);
    if (nameEnd < close && !isSpaceCode(this.source.charCodeAt(nameEnd))) this.fail(nameEnd, 'malformed processing instruction');
    this.position = close + 2;
    return {
      kind: 'pi',
      target,
      data: this.source.slice(nameEnd, close).trim(),
      start,
      end: close + 2,
      line: this.lines.lineAt(start),
    };
  }

  private readName(at: number, what: string): number {
    const source = this.source;
    if (!isNameStartCode(source.charCodeAt(at))) this.fail(at, `invalid ${what}`);
    let end = at + 1;
    while (end < source.length && isNameCode(source.charCodeAt(end))) end += 1;
    return end;
  }

  /**
   * The name at [start, end), reusing the string of an earlier equal name: documents repeat a handful of
   * names, and one retained string per element adds up in a 50,000-unit file.
   */
  private nameAt(start: number, end: number): string {
    const length = end - start;
    let known = this.names.get(length);
    if (known) for (const name of known) if (this.source.startsWith(name, start)) return name;
    const name = this.source.slice(start, end);
    if (!known) this.names.set(length, (known = []));
    if (known.length < 64) known.push(name);
    return name;
  }

  private skipSpaces(at: number): number {
    while (at < this.source.length && isSpaceCode(this.source.charCodeAt(at))) at += 1;
    return at;
  }

  private readEndTag(start: number): XmlEndTagToken {
    const nameEnd = this.readName(start + 2, 'end tag name');
    const close = this.skipSpaces(nameEnd);
    if (this.source.charCodeAt(close) !== 0x3e) this.fail(close, 'malformed end tag');
    this.position = close + 1;
    return { kind: 'end', name: this.nameAt(start + 2, nameEnd), start, end: close + 1, line: this.lines.lineAt(start) };
  }

  private readStartTag(start: number): XmlStartTagToken {
    const source = this.source;
    const nameEnd = this.readName(start + 1, 'element name');
    const name = this.nameAt(start + 1, nameEnd);
    let attributes: XmlAttribute[] = NO_ATTRIBUTES;
    let at = nameEnd;
    for (;;) {
      const afterSpace = this.skipSpaces(at);
      const code = source.charCodeAt(afterSpace);
      if (code === 0x3e /* > */ || (code === 0x2f /* / */ && source.charCodeAt(afterSpace + 1) === 0x3e)) {
        const selfClosing = code === 0x2f;
        const end = afterSpace + (selfClosing ? 2 : 1);
        this.position = end;
        // Built with every XmlElement field so readXmlDocument turns it into the element without copying
        // (one object per element instead of two: large files are allocation-bound).
        const colon = name.indexOf(':');
        const token: XmlStartTagToken & Omit<XmlElement, 'kind'> = {
          kind: 'start',
          name,
          prefix: colon === -1 ? '' : name.slice(0, colon),
          localName: colon === -1 ? name : name.slice(colon + 1),
          attributes,
          children: NO_CHILDREN,
          parent: null,
          selfClosing,
          start,
          end,
          startTagEnd: end,
          endTagStart: end,
          line: this.lines.lineAt(start),
          depth: 0,
        };
        return token;
      }
      if (afterSpace >= source.length) this.fail(start, `unterminated start tag <${name}>`);
      if (afterSpace === at) this.fail(at, `expected whitespace, ">" or "/>" in <${name}>`);
      const attributeEnd = this.readName(afterSpace, 'attribute name');
      const attributeName = this.nameAt(afterSpace, attributeEnd);
      const equals = this.skipSpaces(attributeEnd);
      if (source.charCodeAt(equals) !== 0x3d /* = */) this.fail(equals, `attribute ${attributeName} has no value`);
      const quoteAt = this.skipSpaces(equals + 1);
      const quote = source[quoteAt];
      if (quote !== '"' && quote !== "'") this.fail(quoteAt, `attribute ${attributeName} value is not quoted`);
      const close = source.indexOf(quote, quoteAt + 1);
      if (close === -1) this.fail(quoteAt, `unterminated value of attribute ${attributeName}`);
      const raw = source.slice(quoteAt + 1, close);
      const lessThan = raw.indexOf('<');
      if (lessThan !== -1) this.fail(quoteAt + 1 + lessThan, `"<" in value of attribute ${attributeName}`);
      for (const attribute of attributes) {
        if (attribute.name === attributeName) this.fail(afterSpace, `duplicate attribute ${attributeName}`);
      }
      if (attributes === NO_ATTRIBUTES) attributes = [];
      attributes.push({
        name: attributeName,
        value: decodeAttributeValue(raw, quoteAt + 1, this),
        start: afterSpace,
        end: close + 1,
        valueStart: quoteAt + 1,
        valueEnd: close,
        quote,
      });
      at = close + 1;
    }
  }
}

function normaliseLineEnds(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
}

interface Failer {
  fail(offset: number, problem: string): never;
}

/** Resolves `&...;` references in `raw` (which starts at `offset` in the document). */
function decodeReferences(raw: string, offset: number, failer: Failer): string {
  let out = '';
  let last = 0;
  let at = raw.indexOf('&');
  while (at !== -1) {
    const semicolon = raw.indexOf(';', at + 1);
    // Entity names are short; a far-away ";" means a bare "&", which XML forbids.
    if (semicolon === -1 || semicolon - at > 12) failer.fail(offset + at, 'unescaped "&"');
    const name = raw.slice(at + 1, semicolon);
    let replacement: string;
    if (name.startsWith('#')) {
      const hex = name[1] === 'x';
      const digits = name.slice(hex ? 2 : 1);
      if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) failer.fail(offset + at, `invalid character reference &${name};`);
      const code = parseInt(digits, hex ? 16 : 10);
      if (!isXmlCodePoint(code)) failer.fail(offset + at, `character reference &${name}; is not an XML character`);
      replacement = String.fromCodePoint(code);
    } else {
      const known = PREDEFINED_ENTITIES[name];
      if (known === undefined) failer.fail(offset + at, `undefined entity &${name};`);
      replacement = known;
    }
    out += raw.slice(last, at) + replacement;
    last = semicolon + 1;
    at = raw.indexOf('&', last);
  }
  return out + raw.slice(last);
}

function decodeCharacterData(raw: string, offset: number, failer: Failer): string {
  const text = normaliseLineEnds(raw);
  if (text.indexOf('&') === -1) return text;
  // Normalising line ends shifts offsets only on lines after a CR, so error lines stay right.
  return decodeReferences(text, offset, failer);
}

function decodeAttributeValue(raw: string, offset: number, failer: Failer): string {
  // XML 1.0 §3.3.3: literal CR LF / CR / LF / tab become one space each; references are resolved after.
  const hasBreaks = raw.indexOf('\n') !== -1 || raw.indexOf('\r') !== -1 || raw.indexOf('\t') !== -1;
  const spaced = hasBreaks ? raw.replace(/\r\n|[\r\n\t]/g, ' ') : raw;
  return spaced.indexOf('&') === -1 ? spaced : decodeReferences(spaced, offset, failer);
}

/**
 * Reads a whole document into a tree with offsets. Checks well-formedness (one root, matched tags, no text
 * outside the root) and bounds nesting to `maxDepth`.
 */
export function readXmlDocument(source: string, options: XmlReadOptions = {}): XmlDocument {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  // The explicit type lets `fail(): never` narrow (TypeScript needs it for control-flow analysis).
  const tokenizer: XmlTokenizer = new XmlTokenizer(source);
  const prolog: XmlNode[] = [];
  let doctype: XmlDoctype | null = null;
  let declaration: XmlProcessingInstruction | null = null;
  let root: XmlElement | null = null;
  let current: XmlElement | null = null;
  let seenAnything = false;

  for (let token = tokenizer.next(); token !== null; token = tokenizer.next()) {
    const first = !seenAnything;
    seenAnything = true;
    switch (token.kind) {
      case 'start': {
        if (!current && root) tokenizer.fail(token.start, 'content after the root element');
        const depth = current ? current.depth + 1 : 1;
        if (depth > maxDepth) tokenizer.fail(token.start, `elements nested deeper than ${maxDepth}`);
        const element = token as unknown as XmlElement;
        element.kind = 'element';
        element.parent = current;
        element.depth = depth;
        if (current) addChild(current, element);
        else root = element;
        if (!token.selfClosing) current = element;
        break;
      }
      case 'end': {
        if (!current) tokenizer.fail(token.start, `unexpected end tag </${token.name}>`);
        if (current.name !== token.name) {
          tokenizer.fail(token.start, `end tag </${token.name}> does not match <${current.name}> of line ${current.line}`);
        }
        current.endTagStart = token.start;
        current.end = token.end;
        current = current.parent;
        break;
      }
      case 'doctype':
        if (root || doctype) tokenizer.fail(token.start, 'misplaced DOCTYPE');
        doctype = token;
        break;
      case 'pi':
        if (token.target.toLowerCase() === 'xml') {
          if (!first) tokenizer.fail(token.start, 'XML declaration must be at the very start');
          declaration = token;
        }
        if (current) addChild(current, token);
        else if (!root) prolog.push(token);
        break;
      default:
        if (current) addChild(current, token);
        else if (token.kind === 'text' && token.text.trim() === '') {
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

/** The decoded value of attribute `name` (qualified name as written), or undefined. */
export function getAttribute(element: XmlElement, name: string): string | undefined {
  for (const attribute of element.attributes) if (attribute.name === name) return attribute.value;
  return undefined;
}

export function findAttribute(element: XmlElement, name: string): XmlAttribute | undefined {
  return element.attributes.find((attribute) => attribute.name === name);
}

/** Child elements, optionally only those with `localName`. */
export function childElements(element: XmlElement, localName?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of element.children) {
    if (child.kind === 'element' && (localName === undefined || child.localName === localName)) out.push(child);
  }
  return out;
}

export function firstChildElement(element: XmlElement, localName: string): XmlElement | undefined {
  for (const child of element.children) if (child.kind === 'element' && child.localName === localName) return child;
  return undefined;
}

/** Concatenated decoded text of all text and CDATA descendants, in document order (iterative). */
export function textContent(element: XmlElement): string {
  let out = '';
  const stack: XmlNode[] = [...element.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as XmlNode;
    if (node.kind === 'text' || node.kind === 'cdata') out += node.text;
    else if (node.kind === 'element') for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push(node.children[i]);
  }
  return out;
}

/** The raw markup between the start and end tags, exactly as written ("" for a self-closing element). */
export function innerXml(document: Pick<XmlDocument, 'source'>, element: XmlElement): string {
  return document.source.slice(element.startTagEnd, element.endTagStart);
}

/** The namespace URI bound to `prefix` ("" = default namespace) at `element`, or undefined. */
export function namespaceOf(element: XmlElement, prefix: string = element.prefix): string | undefined {
  const attributeName = prefix === '' ? 'xmlns' : `xmlns:${prefix}`;
  for (let at: XmlElement | null = element; at; at = at.parent) {
    const value = getAttribute(at, attributeName);
    if (value !== undefined) return value;
  }
  if (prefix === 'xml') return 'http://www.w3.org/XML/1998/namespace';
  return undefined;
}
