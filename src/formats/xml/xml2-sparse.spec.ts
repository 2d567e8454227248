import { readXmlDocument, textContent, type XmlElement } from './xml-tokenizer';
import { readSparseXml } from './xml2-sparse';

// The sparse reader must accept and reject exactly what readXmlDocument does, with the same messages.

const entries = { isEntry: (element: XmlElement) => element.localName === 'entry', onEntry: () => false };

function errorOf(read: () => unknown): string {
  try {
    read();
    return 'no error';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('readSparseXml', () => {
  it.each([
    '<a><entry>x</a>',
    '<a><entry>x</entry></b>',
    '<a></a><b/>',
    'text<a/>',
    '<a/>text',
    '<a><!DOCTYPE a></a>',
    '<a/>\n<?xml version="1.0"?>',
    '<a>&bogus;</a>',
    '<a><entry>&#0;</entry></a>',
    '',
    '<a>',
    '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>',
    `${'<e>'.repeat(300)}${'</e>'.repeat(300)}`,
  ])('fails like readXmlDocument (case %#)', (text) => {
    const expected = errorOf(() => readXmlDocument(text));
    expect(expected).not.toBe('no error');
    expect(errorOf(() => readSparseXml(text, entries))).toBe(expected);
  });

  it('hands each entry over complete and keeps its subtree only when asked', () => {
    const text = '<?xml version="1.0"?>\n<list>\n  <entry id="1"><v>one</v></entry>\n  <entry id="2"><v>two</v></entry>\n</list>\n';
    const seen: string[] = [];
    const doc = readSparseXml(text, {
      isEntry: (element) => element.localName === 'entry',
      onEntry: (element) => {
        seen.push(textContent(element));
        return element.attributes[0].value === '2';
      },
    });
    expect(seen).toEqual(['one', 'two']);
    const [first, second] = doc.root.children.filter((node): node is XmlElement => node.kind === 'element');
    expect(first.children).toEqual([]);
    expect(textContent(second)).toBe('two');
    expect(text.slice(first.start, first.end)).toBe('<entry id="1"><v>one</v></entry>');
    expect(doc.declaration?.target).toBe('xml');
  });
});
