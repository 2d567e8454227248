import { FormatParseError, FormatWriteError } from '../format';
import { applySplices, decodeXml, detectNewline, encodeXml } from './xml-encoding';
import { escapeXmlAttribute, escapeXmlComment, escapeXmlText } from './xml-escape';
import { readScannedElement, scanXmlDocument } from './xml-scan';
import {
  XmlElement,
  XmlTokenizer,
  childElements,
  findAttribute,
  getAttribute,
  innerXml,
  namespaceOf,
  readXmlDocument,
  textContent,
} from './xml-tokenizer';

function parseError(source: string): string {
  try {
    readXmlDocument(source);
  } catch (error) {
    expect(error).toBeInstanceOf(FormatParseError);
    return (error as Error).message;
  }
  throw new Error('expected a parse error');
}

describe('XmlTokenizer', () => {
  it('reports every token kind with offsets that slice the original text', () => {
    const source = '<?xml version="1.0"?>\n<!-- c -->\n<r a="1" b=\'x &amp; y\'><![CDATA[<raw>]]>t&lt;<e/><?p d?></r>';
    const tokenizer = new XmlTokenizer(source);
    const kinds: string[] = [];
    for (let token = tokenizer.next(); token; token = tokenizer.next()) {
      kinds.push(token.kind);
      expect(source.slice(token.start, token.end).length).toBe(token.end - token.start);
    }
    expect(kinds).toEqual(['pi', 'text', 'comment', 'text', 'start', 'cdata', 'text', 'start', 'pi', 'end']);
  });

  it('decodes entities, numeric references and line ends; keeps attribute positions', () => {
    const source = '<r a="x &#x41;&#66;\r\ny" b=\'&quot;\'>a&amp;b&#x1F600;\r\nc</r>';
    const document = readXmlDocument(source);
    const root = document.root;
    expect(getAttribute(root, 'a')).toBe('x AB y');
    expect(getAttribute(root, 'b')).toBe('"');
    const a = findAttribute(root, 'a') as NonNullable<ReturnType<typeof findAttribute>>;
    expect(source.slice(a.valueStart, a.valueEnd)).toBe('x &#x41;&#66;\r\ny');
    expect(source.slice(a.start, a.end)).toBe('a="x &#x41;&#66;\r\ny"');
    expect(a.quote).toBe('"');
    expect(textContent(root)).toBe('a&b\u{1F600}\nc');
  });

  it('builds a tree with element spans, inner xml and lines', () => {
    const source = '<?xml version="1.0" encoding="utf-8"?>\n<resources xmlns:xliff="urn:x">\n  <string name="a">Hi <b>you</b><xliff:g id="n">%d</xliff:g></string>\n  <e />\n</resources>\n';
    const document = readXmlDocument(source);
    expect(document.declaration?.data).toBe('version="1.0" encoding="utf-8"');
    const [string, empty] = childElements(document.root);
    expect(string.line).toBe(3);
    expect(innerXml(document, string)).toBe('Hi <b>you</b><xliff:g id="n">%d</xliff:g>');
    expect(textContent(string)).toBe('Hi you%d');
    const g = childElements(string)[1];
    expect(g).toMatchObject({ name: 'xliff:g', prefix: 'xliff', localName: 'g', depth: 3 });
    expect(namespaceOf(g)).toBe('urn:x');
    expect(empty).toMatchObject({ selfClosing: true, children: [] });
    expect(source.slice(empty.start, empty.end)).toBe('<e />');
    expect(empty.startTagEnd).toBe(empty.end);
    expect(source.slice(string.start, string.end)).toMatch(/^<string name="a">.*<\/string>$/);
    expect(source.slice(string.endTagStart, string.end)).toBe('</string>');
    expect(document.lineAt(source.indexOf('<e'))).toBe(4);
  });

  it('accepts a DOCTYPE without entity declarations and keeps it', () => {
    const document = readXmlDocument('<!DOCTYPE TS>\n<TS version="2.1"><context/></TS>');
    expect(document.doctype?.text).toBe(' TS');
    expect(document.root.name).toBe('TS');
  });

  it('refuses entity declarations (XXE, billion laughs)', () => {
    expect(parseError('<?xml version="1.0"?>\n<!DOCTYPE r [\n<!ENTITY a "aaaa">\n]>\n<r>&a;</r>')).toBe(
      'line 3: entity declarations are not allowed (DOCTYPE with <!ENTITY>)',
    );
    expect(parseError('<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>')).toMatch(/^line 1: entity/);
    expect(parseError('<r>&nbsp;</r>')).toBe('line 1: undefined entity &nbsp;');
  });

  it('bounds nesting depth without recursion', () => {
    const deep = '<a>'.repeat(300) + '</a>'.repeat(300);
    expect(parseError(deep)).toBe('line 1: elements nested deeper than 256');
    expect(readXmlDocument(deep, { maxDepth: 400 }).root.name).toBe('a');
  });

  it.each([
    ['<r>\n<a></b></r>', 'line 2: end tag </b> does not match <a> of line 2'],
    ['<r>\n<a>', 'line 2: element <a> is not closed'],
    ['<r/><r/>', 'line 1: content after the root element'],
    ['x<r/>', 'line 1: text outside the root element'],
    ['<r a="1" a="2"/>', 'line 1: duplicate attribute a'],
    ['<r a=1/>', 'line 1: attribute a value is not quoted'],
    ['<r a="<"/>', 'line 1: "<" in value of attribute a'],
    ['<r>\n\na & b</r>', 'line 3: unescaped "&"'],
    ['<r>&#0;</r>', 'line 1: character reference &#0; is not an XML character'],
    ['<r>&#xZZ;</r>', 'line 1: invalid character reference &#xZZ;'],
    ['<r>\u0001</r>', 'line 1: character U+0001 is not allowed in XML'],
    ['<r><!-- a -- b --></r>', 'line 1: "--" is not allowed inside a comment'],
    ['<r><![CDATA[x</r>', 'line 1: unterminated CDATA section'],
    ['<r>]]></r>', 'line 1: "]]>" is not allowed in text'],
    ['', 'line 1: no root element'],
    ['<r><1/></r>', 'line 1: invalid element name'],
    ['<r>\n<?xml version="1.0"?></r>', 'line 2: XML declaration must be at the very start'],
    ['<r', 'line 1: unterminated start tag <r>'],
  ])('rejects %j', (source, message) => {
    expect(parseError(source)).toBe(message);
  });

  it('reads a large document completely', () => {
    const body = Array.from({ length: 50_000 }, (_, i) => `  <string name="k${i}">Value &amp; ${i}</string>\n`).join('');
    const source = `<resources>\n${body}</resources>\n`;
    const document = readXmlDocument(source);
    expect(document.root.children.filter((child): child is XmlElement => child.kind === 'element')).toHaveLength(50_000);
  });

  it('rejects hostile inputs with a parse error', () => {
    for (const hostile of ['<'.repeat(100_000), '&'.repeat(100_000), `<r a="${'&'.repeat(50_000)}"/>`, '<!--'.repeat(50_000)]) {
      expect(() => readXmlDocument(hostile)).toThrow(FormatParseError);
    }
  });
});

describe('scanXmlDocument', () => {
  const source = '<r xmlns:x="urn:x">\n  <a n="1">one</a>\n  <g><a n="2"><x:b>two</x:b></a></g>\n</r>';

  it('keeps only the selected elements, with offsets into the source', () => {
    const scan = scanXmlDocument(source, (name) => name === 'a');
    expect(scan.root.name).toBe('r');
    expect(scan.elements.map((element) => [getAttribute(element, 'n'), element.depth, source.slice(element.start, element.end)])).toEqual([
      ['1', 2, '<a n="1">one</a>'],
      ['2', 3, '<a n="2"><x:b>two</x:b></a>'],
    ]);
  });

  it('re-reads one element with its namespaces and maps positions back', () => {
    const scan = scanXmlDocument(source, (name) => name === 'a');
    const { document, element, delta } = readScannedElement(scan, scan.elements[1]);
    expect(textContent(element)).toBe('two');
    expect(namespaceOf(childElements(element)[0])).toBe('urn:x');
    expect(source.slice(element.startTagEnd + delta, element.endTagStart + delta)).toBe(innerXml(document, element));
  });

  it.each([
    ['<r><a></b></r>', 'line 1: end tag </b> does not match <a> of line 1'],
    ['<r>\n<a>', 'line 2: element <a> is not closed'],
    ['<r/>x', 'line 1: text outside the root element'],
    ['<!DOCTYPE r [<!ENTITY a "x">]><r/>', 'line 1: entity declarations are not allowed (DOCTYPE with <!ENTITY>)'],
  ])('checks well-formedness like readXmlDocument: %j', (bad, message) => {
    expect(() => scanXmlDocument(bad, () => true)).toThrow(new FormatParseError(message));
  });
});

describe('xml escaping', () => {
  it('escapes text like libxml2', () => {
    expect(escapeXmlText('a & <b> "c" \'d\'\r')).toBe('a &amp; &lt;b&gt; "c" \'d\'&#13;');
  });
  it('escapes attributes so normalisation gives the value back', () => {
    const value = 'a&<>"\'\t\n\r';
    const escaped = escapeXmlAttribute(value);
    expect(escaped).toBe('a&amp;&lt;&gt;&quot;\'&#9;&#10;&#13;');
    expect(getAttribute(readXmlDocument(`<r v="${escaped}"/>`).root, 'v')).toBe(value);
    expect(escapeXmlAttribute(`it's "x"`, "'")).toBe('it&apos;s "x"');
  });
  it('keeps comments well-formed', () => {
    expect(escapeXmlComment('a--b-')).toBe('a- -b- ');
  });
  it('refuses characters XML cannot hold', () => {
    expect(() => escapeXmlText('a\u0000')).toThrow(FormatWriteError);
  });
});

describe('xml encoding', () => {
  it.each([
    ['utf-8 without BOM', Buffer.from('<r>é</r>', 'utf8'), 'utf-8', false],
    ['utf-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<r>é</r>')]), 'utf-8', true],
    ['utf-16le with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<r>é</r>', 'utf16le')]), 'utf-16le', true],
    ['utf-16be with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('<r>é</r>', 'utf16le').swap16()]), 'utf-16be', true],
    ['latin1 declared', Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><r>é</r>', 'latin1'), 'iso-8859-1', false],
  ])('round-trips %s byte for byte', (_name, bytes, encoding, bom) => {
    const decoded = decodeXml(bytes);
    expect(decoded.encoding).toBe(encoding);
    expect(decoded.bom).toBe(bom);
    expect(decoded.text).toMatch(/<r>é<\/r>$/);
    expect(encodeXml(decoded.text, decoded).equals(bytes)).toBe(true);
  });
  it('writes characters latin1 lacks as references', () => {
    expect(encodeXml('<r>€</r>', { encoding: 'iso-8859-1', bom: false }).toString('latin1')).toBe('<r>&#8364;</r>');
  });
  it('rejects bad bytes and unknown encodings', () => {
    expect(() => decodeXml(Buffer.from([0x3c, 0x72, 0x3e, 0xff, 0x3c]))).toThrow('line 1: file is not valid UTF-8');
    expect(() => decodeXml(Buffer.from('<?xml version="1.0" encoding="EBCDIC"?><r/>'))).toThrow('unsupported encoding');
  });
  it('splices and detects line ends', () => {
    expect(applySplices('abcdef', [{ start: 4, end: 5, text: 'X' }, { start: 0, end: 1, text: '' }])).toBe('bcdXf');
    expect(() => applySplices('abc', [{ start: 0, end: 2, text: '' }, { start: 1, end: 3, text: '' }])).toThrow(FormatWriteError);
    expect(detectNewline('a\r\nb')).toBe('\r\n');
    expect(detectNewline('a\nb')).toBe('\n');
  });
});
