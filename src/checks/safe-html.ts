import type { Flags } from './flags';

// The HTML cleaning behind Weblate's `safe-html` check and automatic fix (checks-suggestions-search.md §1.4,
// §4.1): a translation keeps only a safe subset of HTML — a base set of harmless tags and attributes plus
// the tags and attributes its source uses — and nothing that runs script. Weblate uses a real HTML sanitiser
// (Bleach, then Ammonia); Glossa has none among its dependencies, so this is a conservative allowlist over a
// small tokenizer that reads tags the way browsers do (a tag name runs to whitespace, `/` or `>`; quoted
// attribute values may contain `>`), and rebuilds only what it recognises:
//   * an allowed tag keeps its allowed attributes, as written; anything else in the tag is dropped;
//   * tags outside the allowlist are dropped and their text kept, except the contents of script-like
//     elements (`<script>`, `<style>`, `<iframe>`, …), which are dropped too;
//   * URL attributes keep only relative URLs and http(s), mailto, tel and ftp ones, judged after decoding
//     character references and removing the whitespace and control characters browsers ignore;
//   * comments, doctypes and processing instructions are dropped; a `<` that starts no tag becomes `&lt;`;
//   * tags are balanced: a stray end tag is dropped, unclosed elements are closed at the end.
// Text is kept byte for byte (entities and non-breaking spaces included), so clean HTML comes back unchanged.

/** Tags always allowed (roughly Ammonia's defaults: text-level and structural markup without behaviour). */
const BASE_TAGS = new Set(
  (
    'a abbr acronym area article aside b bdi bdo big blockquote br caption center cite code col colgroup data dd del ' +
    'details dfn div dl dt em figcaption figure footer h1 h2 h3 h4 h5 h6 header hgroup hr i img ins kbd li map mark ' +
    'nav ol p pre q rp rt rtc ruby s samp small span strike strong sub summary sup table tbody td tfoot th thead time ' +
    'tr tt u ul var wbr'
  ).split(' '),
);

/** Tags never allowed, whatever the source uses: they run script, load documents or take over forms and pages. */
const FORBIDDEN_TAGS = new Set(
  (
    'script style iframe frame frameset object embed applet param base basefont meta link form input button select ' +
    'option textarea isindex noscript noembed noframes template title xmp plaintext svg math portal frame dialog'
  ).split(' '),
);

/** Forbidden elements whose content is dropped with them (it is code or raw text, never visible text). */
const DROP_CONTENT = new Set(['script', 'style', 'iframe', 'noscript', 'noembed', 'noframes', 'template', 'textarea', 'title', 'xmp', 'plaintext', 'object', 'applet', 'svg', 'math']);

/** Elements without content or end tag. */
const VOID_TAGS = new Set(['area', 'br', 'col', 'hr', 'img', 'wbr']);

/** Attributes allowed on every allowed tag. */
const GLOBAL_ATTRIBUTES = new Set(['lang', 'title', 'dir']);

/** Attributes allowed on particular tags. */
const TAG_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'hreflang'],
  img: ['src', 'alt', 'width', 'height', 'align'],
  area: ['alt', 'coords', 'href', 'shape'],
  bdo: ['dir'],
  blockquote: ['cite'],
  q: ['cite'],
  del: ['cite', 'datetime'],
  ins: ['cite', 'datetime'],
  col: ['align', 'char', 'charoff', 'span'],
  colgroup: ['align', 'char', 'charoff', 'span'],
  data: ['value'],
  map: ['name'],
  ol: ['reversed', 'start', 'type'],
  li: ['value'],
  td: ['align', 'char', 'charoff', 'colspan', 'headers', 'rowspan'],
  th: ['align', 'char', 'charoff', 'colspan', 'headers', 'rowspan', 'scope'],
  time: ['datetime'],
};

/** Attributes whose value is a URL (checked for its scheme). */
const URL_ATTRIBUTES = new Set(['href', 'src', 'cite', 'action', 'formaction', 'poster', 'background', 'longdesc', 'xlink:href', 'data', 'srcset', 'ping']);

/** Attributes never allowed, whatever the source uses (event handlers are refused by their `on` prefix). */
const FORBIDDEN_ATTRIBUTES = new Set(['style', 'srcdoc', 'formaction', 'action', 'xmlns', 'xlink:href', 'srcset', 'ping', 'background', 'poster', 'data', 'is', 'autofocus']);

const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel', 'ftp']);

/** Bounds the work on hostile input: texts longer than this are not tokenised (they are escaped entirely). */
const MAX_HTML_LENGTH = 100_000;

interface Attribute {
  /** Lower-case name. */
  name: string;
  /** The attribute as written (`name`, `name=value`, `name="value"`). */
  raw: string;
  /** The value with character references decoded. */
  value: string;
}

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attributes: Attribute[];
  /** Offset just after the tag's `>`. */
  end: number;
}

const TAG_NAME = /[A-Za-z][^\s/>\0]*/y;
const ATTRIBUTE_NAME = /[^\s"'>/=\0][^\s"'>/=\0]*/y;
const WHITESPACE = /[\t\n\f\r ]*/y;

/**
 * A reader of the tags of one text. It knows where the last `>` and the last quotes are, so a `<` that
 * starts a tag which can never end is answered at once: hostile input with many of them stays linear.
 */
function tagReader(html: string): (start: number) => Tag | null {
  const lastGt = html.lastIndexOf('>');
  const lastQuote: Record<string, number> = { '"': html.lastIndexOf('"'), "'": html.lastIndexOf("'") };
  return (start) => (start > lastGt ? null : readTag(html, start, lastQuote));
}

/** Reads the tag starting at `<` (offset `start`); null when no tag starts there or it never ends. */
function readTag(html: string, start: number, lastQuote: Readonly<Record<string, number>>): Tag | null {
  let i = start + 1;
  const closing = html[i] === '/';
  if (closing) i += 1;
  TAG_NAME.lastIndex = i;
  const nameMatch = TAG_NAME.exec(html);
  if (!nameMatch) return null;
  i = TAG_NAME.lastIndex;
  const attributes: Attribute[] = [];
  let selfClosing = false;
  for (;;) {
    WHITESPACE.lastIndex = i;
    WHITESPACE.exec(html);
    i = WHITESPACE.lastIndex;
    if (i >= html.length) return null;
    if (html[i] === '>') return { name: nameMatch[0].toLowerCase(), closing, selfClosing, attributes, end: i + 1 };
    if (html[i] === '/') {
      selfClosing = html[i + 1] === '>';
      i += 1;
      continue;
    }
    ATTRIBUTE_NAME.lastIndex = i;
    const attributeMatch = ATTRIBUTE_NAME.exec(html);
    // A quote or `=` where a name belongs: browsers take it as part of a name; skip the character.
    if (!attributeMatch) {
      i += 1;
      continue;
    }
    const attributeStart = i;
    i = ATTRIBUTE_NAME.lastIndex;
    WHITESPACE.lastIndex = i;
    WHITESPACE.exec(html);
    let value = '';
    if (html[WHITESPACE.lastIndex] === '=') {
      i = WHITESPACE.lastIndex + 1;
      WHITESPACE.lastIndex = i;
      WHITESPACE.exec(html);
      i = WHITESPACE.lastIndex;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        if (lastQuote[quote] <= i) return null;
        const close = html.indexOf(quote, i + 1);
        if (close < 0) return null;
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        const unquoted = /[^\t\n\f\r >]*/y;
        unquoted.lastIndex = i;
        value = unquoted.exec(html)![0];
        i = unquoted.lastIndex;
      }
    }
    attributes.push({ name: attributeMatch[0].toLowerCase(), raw: html.slice(attributeStart, i), value: decodeReferences(value) });
  }
}

const NAMED_REFERENCES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', tab: '\t', newline: '\n', nbsp: '\u00a0', sol: '/' };

/** Decodes numeric and the common named character references, as a browser does before using a URL. */
function decodeReferences(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]+|#\d+|[A-Za-z]+);?/g, (match, reference: string) => {
    if (reference.startsWith('#')) {
      const code = reference[1] === 'x' || reference[1] === 'X' ? parseInt(reference.slice(2), 16) : parseInt(reference.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
    return NAMED_REFERENCES[reference.toLowerCase()] ?? match;
  });
}

/** A URL browsers would not run as script: relative, or with a safe scheme. */
export function isSafeUrl(value: string): boolean {
  // Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:").
  const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  const scheme = /^([^/?#]*?):/.exec(compact);
  if (scheme === null) return true;
  return SAFE_SCHEMES.has(scheme[1].toLowerCase());
}

/**
 * Whether HTML cleaning applies to a unit (§1.4, §4.1): `safe-html`, or `auto-safe-html` when the source
 * looks like HTML; `ignore-safe-html` (or `ignore-all-checks`) switches both the check and the fix off.
 */
export function safeHtmlApplies(flags: Flags, source: readonly string[]): boolean {
  if (flags.ignores('safe-html')) return false;
  return flags.has('safe-html') || (flags.has('auto-safe-html') && source.some(looksLikeHtml));
}

/** Whether a text looks like HTML: it has a tag (for `auto-safe-html`, §1.4). */
export function looksLikeHtml(text: string): boolean {
  if (text.length > MAX_HTML_LENGTH) return text.includes('<');
  const read = tagReader(text);
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) {
    if (read(i) !== null) return true;
  }
  return false;
}

interface Allowlist {
  tags: ReadonlySet<string>;
  attributes: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The base allowlist extended by the tags and attributes the source uses (never the forbidden ones). */
function allowlistFor(source: string): Allowlist {
  const tags = new Set(BASE_TAGS);
  const attributes = new Map<string, Set<string>>();
  const attributesOf = (tag: string): Set<string> => {
    let set = attributes.get(tag);
    if (set === undefined) {
      set = new Set([...GLOBAL_ATTRIBUTES, ...(TAG_ATTRIBUTES[tag] ?? [])]);
      attributes.set(tag, set);
    }
    return set;
  };
  for (const tag of BASE_TAGS) attributesOf(tag);
  if (source.length <= MAX_HTML_LENGTH) {
    const read = tagReader(source);
    for (let i = source.indexOf('<'); i >= 0; i = source.indexOf('<', i + 1)) {
      const tag = read(i);
      if (tag !== null) i = tag.end - 1;
      if (tag === null || tag.closing || FORBIDDEN_TAGS.has(tag.name) || !/^[a-z][a-z0-9-]*$/.test(tag.name)) continue;
      tags.add(tag.name);
      const allowed = attributesOf(tag.name);
      for (const attribute of tag.attributes) if (safeAttributeName(attribute.name)) allowed.add(attribute.name);
    }
  }
  return { tags, attributes };
}

function safeAttributeName(name: string): boolean {
  return /^[a-z][a-z0-9_:-]*$/.test(name) && !name.startsWith('on') && !FORBIDDEN_ATTRIBUTES.has(name);
}

const escapeLt = (text: string): string => text.replace(/</g, '&lt;');

/**
 * Cleans `html` to the safe subset allowed by `source` (see the top of this file). Clean input comes back
 * identical, so "sanitising changes it" is the `safe-html` check.
 */
export function sanitizeHtml(html: string, source = ''): string {
  if (html.length > MAX_HTML_LENGTH) return escapeLt(html);
  const allow = allowlistFor(source);
  const read = tagReader(html);
  const out: string[] = [];
  const open: string[] = [];
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out.push(html.slice(i));
      break;
    }
    out.push(html.slice(i, lt));
    i = lt;
    if (html.startsWith('<!--', i)) {
      const close = html.indexOf('-->', i + 4);
      i = close < 0 ? html.length : close + 3;
      continue;
    }
    if (html[i + 1] === '!' || html[i + 1] === '?') {
      // Doctype, CDATA or processing instruction: dropped up to its `>`.
      const close = html.indexOf('>', i);
      i = close < 0 ? html.length : close + 1;
      continue;
    }
    const tag = read(i);
    if (tag === null) {
      out.push('&lt;');
      i += 1;
      continue;
    }
    i = tag.end;
    if (!tag.closing && DROP_CONTENT.has(tag.name)) {
      // Everything up to the element's end tag goes (to the end of the text when it is never closed).
      const close = new RegExp(`</${tag.name}[\\t\\n\\f\\r />]`, 'ig');
      close.lastIndex = i;
      const match = close.exec(html);
      if (match === null) break;
      const end = read(match.index);
      i = end === null ? html.length : end.end;
      continue;
    }
    if (!allow.tags.has(tag.name)) continue;
    if (tag.closing) {
      const index = open.lastIndexOf(tag.name);
      if (index < 0) continue;
      // Closing an outer element closes the ones left open inside it.
      while (open.length > index + 1) out.push(`</${open.pop()}>`);
      open.pop();
      // Browsers ignore anything else in an end tag: it is written plainly unless it is plain already.
      const written = html.slice(lt, i);
      out.push(/^<\/[A-Za-z][^\s/>]*\s*>$/.test(written) ? written : `</${written.slice(2).match(/^[^\s/>]+/)![0]}>`);
      continue;
    }
    out.push(rebuildTag(html.slice(lt, i), tag, allow.attributes.get(tag.name) ?? new Set(GLOBAL_ATTRIBUTES)));
    if (!VOID_TAGS.has(tag.name) && !tag.selfClosing) open.push(tag.name);
  }
  while (open.length > 0) out.push(`</${open.pop()}>`);
  return out.join('');
}

/** A start tag with nothing but its name and well-formed attributes. */
const WELL_FORMED_TAG = /^<[A-Za-z][^\s/>]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>$/;

/** The tag as written when every attribute is kept, else rebuilt from the kept attributes as written. */
function rebuildTag(written: string, tag: Tag, allowed: ReadonlySet<string>): string {
  const seen = new Set<string>();
  const kept = tag.attributes.filter((attribute) => {
    if (seen.has(attribute.name)) return false;
    seen.add(attribute.name);
    if (!allowed.has(attribute.name) || !safeAttributeName(attribute.name)) return false;
    return !URL_ATTRIBUTES.has(attribute.name) || isSafeUrl(attribute.value);
  });
  if (kept.length === tag.attributes.length && WELL_FORMED_TAG.test(written)) return written;
  const name = written.slice(1).match(/^[^\s/>]+/)![0];
  return `<${[name, ...kept.map((attribute) => attribute.raw)].join(' ')}${tag.selfClosing ? ' /' : ''}>`;
}
