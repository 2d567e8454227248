// The text of an Android <string>/<item> as Weblate sees it, and the markup written back for a target
// (formats.md §3.3). A value without child elements is plain text (entities decoded, Android escapes
// resolved); a value with child elements is XML text: markup kept, each text run unescaped and XML-escaped
// again, and namespace prefixes used inside get the declaration lxml adds when serialising a sub-tree.

import { escapeAndroid, unescapeAndroid } from './android-escape';
import { escapeXmlText } from './xml-escape';
import { namespaceOf, readXmlDocument, type XmlDocument, type XmlElement, type XmlNode } from './xml-tokenizer';

function hasChildElement(element: XmlElement): boolean {
  return element.children.some((child) => child.kind === 'element');
}

/** Prefixes used by `element` and its descendants (elements and attributes), in first-use order. */
function usedPrefixes(element: XmlElement): string[] {
  const found: string[] = [];
  const note = (prefix: string): void => {
    if (prefix !== '' && prefix !== 'xml' && prefix !== 'xmlns' && !found.includes(prefix)) found.push(prefix);
  };
  const stack: XmlElement[] = [element];
  while (stack.length > 0) {
    const current = stack.pop() as XmlElement;
    note(current.prefix);
    for (const attribute of current.attributes) {
      const colon = attribute.name.indexOf(':');
      if (colon !== -1) note(attribute.name.slice(0, colon));
    }
    for (const child of current.children) if (child.kind === 'element') stack.push(child);
  }
  return found;
}

function declaresPrefix(element: XmlElement, prefix: string): boolean {
  return element.attributes.some((attribute) => attribute.name === `xmlns:${prefix}`);
}

/** The start tag of a top-level child with the namespace declarations lxml would add in front of its attributes. */
function startTagWithNamespaces(source: string, element: XmlElement): string {
  const tag = source.slice(element.start, element.startTagEnd);
  const declarations = usedPrefixes(element)
    .filter((prefix) => !declaresPrefix(element, prefix))
    .map((prefix) => ({ prefix, uri: namespaceOf(element, prefix) }))
    .filter((entry): entry is { prefix: string; uri: string } => entry.uri !== undefined)
    .map(({ prefix, uri }) => ` xmlns:${prefix}="${uri.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
    .join('');
  const nameEnd = 1 + element.name.length;
  return tag.slice(0, nameEnd) + declarations + tag.slice(nameEnd);
}

function serialiseMarkup(source: string, nodes: readonly XmlNode[], topLevel: boolean): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text' || node.kind === 'cdata') out += escapeXmlText(unescapeAndroid(node.text, { trim: false }));
    else if (node.kind === 'element') {
      // Recursion depth is bounded by the reader's maxDepth.
      const startTag = topLevel ? startTagWithNamespaces(source, node) : source.slice(node.start, node.startTagEnd);
      if (node.selfClosing) out += startTag;
      else out += startTag + serialiseMarkup(source, node.children, false) + source.slice(node.endTagStart, node.end);
    } else out += source.slice(node.start, node.end);
  }
  return out;
}

/** The value of a <string> or plural <item> element as Weblate reads it. */
export function readAndroidValue(document: XmlDocument, element: XmlElement): string {
  if (!hasChildElement(element)) {
    let text = '';
    for (const child of element.children) if (child.kind === 'text' || child.kind === 'cdata') text += child.text;
    return unescapeAndroid(text, { trim: true });
  }
  return serialiseMarkup(document.source, element.children, true);
}

/** Parses a target as the content of a <string>; null when it is not well-formed XML. */
function parseFragment(target: string): XmlDocument | null {
  try {
    return readXmlDocument(`<string>${target}</string>`);
  } catch {
    return null;
  }
}

function writeMarkup(fragment: XmlDocument, nodes: readonly XmlNode[], scope: XmlElement, topLevel: boolean): string {
  const source = fragment.source;
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text' || node.kind === 'cdata') {
      const atValueStart = topLevel && node.start === fragment.root.startTagEnd;
      out += escapeXmlText(escapeAndroid(node.text, { quoteSpaces: false, atValueStart }));
    } else if (node.kind === 'element') {
      let startTag = source.slice(node.start, node.startTagEnd);
      if (topLevel) {
        // Declarations the file already makes at this point are redundant (lxml drops them too).
        for (const attribute of [...node.attributes].reverse()) {
          const prefix = attribute.name.startsWith('xmlns:') ? attribute.name.slice(6) : null;
          if (prefix !== null && namespaceOf(scope, prefix) === attribute.value) {
            let from = attribute.start - node.start;
            while (from > 0 && /\s/.test(startTag[from - 1])) from -= 1;
            startTag = startTag.slice(0, from) + startTag.slice(attribute.end - node.start);
          }
        }
      }
      if (node.selfClosing) out += startTag;
      else out += startTag + writeMarkup(fragment, node.children, scope, false) + source.slice(node.endTagStart, node.end);
    } else out += source.slice(node.start, node.end);
  }
  return out;
}

/**
 * The content to write inside `scope` (a <string> or <item>) for `target`: markup when the target is XML with
 * elements, otherwise escaped plain text (a target that is not well-formed XML is plain text, so `<` and `&`
 * are escaped).
 */
export function writeAndroidValue(target: string, scope: XmlElement): string {
  if (/[<&]/.test(target)) {
    const fragment = parseFragment(target);
    if (fragment && hasChildElement(fragment.root)) return writeMarkup(fragment, fragment.root.children, scope, true);
    if (fragment) target = fragment.root.children.map((node) => (node.kind === 'text' || node.kind === 'cdata' ? node.text : '')).join('');
  }
  return escapeXmlText(escapeAndroid(target, { quoteSpaces: true, atValueStart: true }));
}
