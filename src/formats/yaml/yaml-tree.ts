// Reads a YAML document into Weblate's leaves (formats.md §3.7): contexts join keys with `->`, sequence
// items appear as `[i]`, null values and merge-key (`<<`) values give no unit, Ruby YAML drops a single
// language root and reads a mapping keyed only by CLDR categories as one plural unit.

import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node as YamlNode,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { FormatParseError } from '../format';
import { CATEGORY_ORDER, isCategoryName, pluralCategories, type PluralCategory } from '../plural-categories';
import { scalarText } from './yaml-scalar';

/** Nesting deeper than this is refused rather than walked (hostile input; no real translation file nests so). */
const MAX_DEPTH = 200;

export const PATH_SEPARATOR = '->';

/** One translatable scalar (or Ruby plural map) of the document. */
export interface YamlLeaf {
  context: string;
  /** The scalar holding the text; for an alias, the alias node itself (its target is `scalar`). */
  valueNode: YamlNode;
  scalar?: Scalar;
  /** Ruby YAML plural map: category -> scalar. */
  plural?: { map: YAMLMap; forms: Map<PluralCategory, Scalar> };
  /** The mapping pair holding the value (absent for sequence items). */
  pairKey?: Scalar;
  parent: YAMLMap | YAMLSeq;
  inFlow: boolean;
  line: number;
}

export interface YamlTree {
  doc: Document.Parsed;
  lines: LineCounter;
  leaves: YamlLeaf[];
  /** Every mapping/sequence by its context path ('' is the (language) root), first occurrence kept. */
  containers: Map<string, YAMLMap | YAMLSeq>;
  /** Ruby YAML: the language root key the contexts leave out. */
  languageKey?: Scalar;
}

export function loadYamlTree(text: string): YamlTree {
  const lines = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, keepSourceTokens: false, prettyErrors: false });
  } catch (error) {
    // The composer recurses per nesting level; a hostile file can exhaust the stack.
    if (error instanceof RangeError) throw new FormatParseError('line 1: collections nested too deeply');
    throw error;
  }
  const error = doc.errors[0];
  if (error) {
    const line = error.linePos?.[0].line ?? lines.linePos(error.pos[0]).line;
    throw new FormatParseError(`line ${line}: ${error.message.split('\n')[0]}`);
  }
  return { doc, lines, leaves: [], containers: new Map() };
}

function keyText(key: unknown): string | null {
  if (isScalar(key)) return scalarText(key) ?? 'None';
  if (isAlias(key)) return null;
  return null;
}

export interface WalkOptions {
  ruby: boolean;
  /** Translation language for Ruby plural maps (forms by position over its categories). */
  language?: string;
  /** Called before a leaf is recorded, so limits are checked while walking. */
  onLeaf?: (leaf: YamlLeaf, texts: string[]) => void;
}

/** The plural forms of a Ruby plural map, in the language's category order (or the file's, without one). */
export function pluralForms(forms: Map<PluralCategory, Scalar>, language: string | undefined): string[] {
  const categories = language ? pluralCategories(language) : CATEGORY_ORDER.filter((category) => forms.has(category));
  return categories.map((category) => {
    const scalar = forms.get(category);
    return scalar ? (scalarText(scalar) ?? '') : '';
  });
}

function rubyPluralMap(map: YAMLMap): Map<PluralCategory, Scalar> | null {
  if (map.items.length === 0) return null;
  const forms = new Map<PluralCategory, Scalar>();
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? pair.key.value : null;
    if (typeof key !== 'string' || !isCategoryName(key) || !isScalar(pair.value)) return null;
    if (!forms.has(key)) forms.set(key, pair.value);
  }
  return forms;
}

/** Walks the document in file order, filling `tree.leaves` and `tree.containers`. */
export function walkYamlTree(tree: YamlTree, options: WalkOptions): void {
  let root = tree.doc.contents as YamlNode | null;
  if (options.ruby && isMap(root) && root.items.length === 1 && isScalar(root.items[0].key) && isMap(root.items[0].value)) {
    tree.languageKey = root.items[0].key;
    root = root.items[0].value;
  }
  const lineOf = (node: YamlNode): number => tree.lines.linePos(node.range?.[0] ?? 0).line;

  const visit = (node: YamlNode, path: string[], parent: YAMLMap | YAMLSeq | null, pairKey: Scalar | undefined, inFlow: boolean, depth: number): void => {
    if (depth > MAX_DEPTH) throw new FormatParseError(`line ${lineOf(node)}: nesting deeper than ${MAX_DEPTH} levels`);
    const context = path.join(PATH_SEPARATOR);
    if (isMap(node)) {
      const forms = options.ruby && parent ? rubyPluralMap(node) : null;
      if (forms && parent) {
        const leaf: YamlLeaf = { context, valueNode: node, plural: { map: node, forms }, pairKey, parent, inFlow, line: lineOf(pairKey ?? node) };
        const texts = pluralForms(forms, options.language);
        options.onLeaf?.(leaf, texts);
        tree.leaves.push(leaf);
        return;
      }
      if (!tree.containers.has(context)) tree.containers.set(context, node);
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        if (isScalar(pair.key) && pair.key.source === '<<') continue;
        const key = keyText(pair.key);
        if (key === null || pair.value === null) continue;
        visit(pair.value as YamlNode, [...path, key], node, isScalar(pair.key) ? pair.key : undefined, inFlow || Boolean(node.flow), depth + 1);
      }
      return;
    }
    if (isSeq(node)) {
      if (!tree.containers.has(context)) tree.containers.set(context, node);
      node.items.forEach((item, index) => {
        if (item !== null) visit(item as YamlNode, [...path, `[${index}]`], node, undefined, inFlow || Boolean(node.flow), depth + 1);
      });
      return;
    }
    if (!parent) return;
    let scalar: Scalar | undefined;
    if (isScalar(node)) scalar = node;
    else if (isAlias(node)) {
      // Only aliases of scalars are read (their anchor's text); aliases of collections are skipped so a
      // hostile "billion laughs" file cannot multiply units.
      const target = node.resolve(tree.doc);
      if (isScalar(target)) scalar = target;
    }
    if (!scalar) return;
    const text = scalarText(scalar);
    if (text === null) return;
    const leaf: YamlLeaf = { context, valueNode: node, scalar, pairKey, parent, inFlow, line: lineOf(pairKey ?? node) };
    options.onLeaf?.(leaf, [text]);
    tree.leaves.push(leaf);
  };

  if (root) visit(root, [], null, undefined, false, 0);
}
