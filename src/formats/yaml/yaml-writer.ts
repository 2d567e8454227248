// Writes unit changes into a YAML file by patching the original text (issue 11 item 3, formats.md §3.7):
// an edited scalar's range is replaced, keeping the file's quoting style where it can hold the new text;
// new keys are appended at the end of their parent mapping (creating missing parents), as Weblate does.

import { isAlias, isMap, isScalar, isSeq, Scalar, type Node as YamlNode, type YAMLMap, type YAMLSeq } from 'yaml';
import { FormatWriteError } from '../format';
import { pluralCategories } from '../plural-categories';
import type { StoreChanges, StoreWriteContext, UnitKey, UnitWrite } from '../store';
import { applyPatches, type DecodedText, type TextPatch } from './text-patch';
import { literalBlock, quoteLikeOriginal, quoteNewValue, scalarText } from './yaml-scalar';
import { fastLeaves, readFastYaml, type FastLeaf } from './yaml-fast';
import { fastPluralTexts } from './yaml-plural';
import { loadYamlTree, PATH_SEPARATOR, walkYamlTree, type YamlLeaf, type YamlTree } from './yaml-tree';

/** A subtree of keys to append under one existing container. */
interface PendingNode {
  value?: string[];
  plural?: boolean;
  children: Map<string, PendingNode>;
}

interface WriteState {
  text: string;
  eol: string;
  tree: YamlTree;
  patches: TextPatch[];
  language: string;
  /** Pending additions per existing container, in the order first touched. */
  additions: Map<YAMLMap | YAMLSeq | null, { prefix: string[]; node: PendingNode }>;
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Spaces from the start of the line to `offset` (the column a key or item starts at). */
function indentAt(text: string, offset: number): string {
  const start = lineStartOf(text, offset);
  return ' '.repeat(offset - start);
}

function nodeStart(node: YamlNode): number {
  return node.range?.[0] ?? 0;
}

function replaceScalar(state: WriteState, leaf: YamlLeaf, node: YamlNode, original: Scalar, value: string): void {
  const [start, end] = node.range ?? [0, 0];
  const slice = state.text.slice(start, end);
  let replacement: string;
  if (isScalar(node) && (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED')) {
    const contentIndent = /\n( +)\S/.exec(slice)?.[1] ?? `${indentAt(state.text, nodeStart(leaf.pairKey ?? node))}  `;
    const block = node.type === 'BLOCK_LITERAL' ? literalBlock(value, contentIndent, state.eol) : null;
    // A block scalar's range ends after its last line break, so a quoted replacement needs one back.
    replacement = block ?? quoteNewValue(value, leaf.inFlow) + (slice.endsWith('\n') ? state.eol : '');
  } else if (isAlias(node)) {
    replacement = quoteNewValue(value, leaf.inFlow);
  } else {
    replacement = quoteLikeOriginal(value, original, leaf.inFlow);
  }
  state.patches.push({ start, end, text: replacement });
}

function formsFor(target: string[], count: number): string[] {
  return Array.from({ length: count }, (_, index) => target[index] ?? '');
}

function updateLeaf(state: WriteState, leaf: YamlLeaf, target: string[]): void {
  if (leaf.plural) {
    updatePluralMap(state, leaf, leaf.plural.map, leaf.plural.forms, target);
    return;
  }
  const value = target[0] ?? '';
  const scalar = leaf.scalar;
  if (!scalar) return;
  // An unchanged text keeps its bytes, even where Weblate would re-stringify (42 -> '42', formats.md §3.7).
  if (scalarText(scalar) === value) return;
  replaceScalar(state, leaf, leaf.valueNode, scalar, value);
}

/**
 * A Ruby plural map holds the language's categories (formats.md §3.7): when its keys are already exactly
 * those, only changed forms are patched; otherwise the map is rebuilt in category order, keeping the quoting
 * of forms it had.
 */
function updatePluralMap(state: WriteState, leaf: YamlLeaf, map: YAMLMap, existing: Map<string, Scalar>, target: string[]): void {
  const categories = pluralCategories(state.language);
  const forms = formsFor(target, categories.length);
  const keys = map.items.map((pair) => (isScalar(pair.key) ? String(pair.key.value) : ''));
  if (keys.length === categories.length && keys.every((key, index) => key === categories[index])) {
    categories.forEach((category, index) => {
      const scalar = existing.get(category);
      if (scalar && scalarText(scalar) !== forms[index]) replaceScalar(state, leaf, scalar, scalar, forms[index]);
    });
    return;
  }
  if (map.flow) throw new FormatWriteError(`cannot rebuild the flow plural mapping "${leaf.context}"`);
  const [start, , end] = map.range ?? [0, 0, 0];
  const indent = indentAt(state.text, start);
  const lines = categories.map((category, index) => {
    const scalar = existing.get(category);
    const value = scalar && !scalar.type?.startsWith('BLOCK') ? quoteLikeOriginal(forms[index], scalar, false) : quoteNewValue(forms[index], false);
    return `${indent}${category}: ${value}`;
  });
  const tail = state.text[end - 1] === '\n' ? state.eol : '';
  state.patches.push({ start, end, text: lines.join(state.eol).slice(indent.length) + tail });
}

function removePair(state: WriteState, key: YamlNode | undefined, value: YamlNode, parent: YAMLMap | YAMLSeq): void {
  if (parent.flow) throw new FormatWriteError('cannot remove an entry from a flow collection');
  const first = key ?? value;
  let start = lineStartOf(state.text, nodeStart(first));
  const before = state.text.slice(start, nodeStart(first));
  if (!/^[ \t-]*$/.test(before)) start = nodeStart(first);
  let end = value.range?.[2] ?? nodeStart(first);
  if (state.text[end - 1] !== '\n') {
    const lineEnd = state.text.indexOf('\n', end);
    end = lineEnd === -1 ? state.text.length : lineEnd + 1;
  }
  state.patches.push({ start, end, text: '' });
}

function queueAddition(state: WriteState, container: YAMLMap | YAMLSeq | null, prefix: string[], rest: string[], leafNode: PendingNode): void {
  let entry = state.additions.get(container);
  if (!entry) {
    entry = { prefix, node: { children: new Map() } };
    state.additions.set(container, entry);
  }
  let node = entry.node;
  rest.forEach((part, index) => {
    if (index === rest.length - 1) {
      if (!node.children.has(part)) node.children.set(part, leafNode);
      return;
    }
    let child = node.children.get(part);
    if (!child) {
      child = { children: new Map() };
      node.children.set(part, child);
    }
    if (child.value) throw new FormatWriteError(`"${[...prefix, ...rest.slice(0, index + 1)].join(PATH_SEPARATOR)}" is a string, not a mapping`);
    node = child;
  });
}

function addUnit(state: WriteState, unit: UnitWrite, ruby: boolean, leaves: Map<string, YamlLeaf>): void {
  let parts = unit.context.split(PATH_SEPARATOR);
  const root = state.tree.doc.contents as YamlNode | null;
  const emptyRoot = root === null || (isMap(root) && root.items.length === 0);
  // A Ruby file without a language root gets one (current translate-toolkit; formats.md §3.7 caveat).
  if (ruby && !state.tree.languageKey && emptyRoot) parts = [state.language, ...parts];
  let depth = parts.length - 1;
  let container: YAMLMap | YAMLSeq | null = null;
  for (; depth >= 0; depth -= 1) {
    const prefix = parts.slice(0, depth).join(PATH_SEPARATOR);
    const found = state.tree.containers.get(prefix);
    if (found) {
      container = found;
      break;
    }
    if (depth === 0) break;
  }
  if (depth < 0) depth = 0;
  for (let end = depth + 1; end < parts.length; end += 1) {
    const prefix = parts.slice(0, end).join(PATH_SEPARATOR);
    if (leaves.has(prefix)) throw new FormatWriteError(`cannot add "${unit.context}": "${prefix}" is a string, not a mapping`);
  }
  const plural = ruby && unit.target.length > 1;
  queueAddition(state, container, parts.slice(0, depth), parts.slice(depth), { value: unit.target, plural, children: new Map() });
}

function renderKey(key: string): string {
  return quoteNewValue(key, false);
}

function renderMapping(state: WriteState, node: PendingNode, indent: string): string {
  let out = '';
  for (const [key, child] of node.children) {
    if (/^\[\d+\]$/.test(key)) throw new FormatWriteError(`cannot create the sequence item "${key}" in a new mapping`);
    if (child.value && child.plural) {
      out += `${indent}${renderKey(key)}:${state.eol}`;
      const categories = pluralCategories(state.language);
      const forms = formsFor(child.value, categories.length);
      categories.forEach((category, index) => {
        out += `${indent}  ${category}: ${quoteNewValue(forms[index], false)}${state.eol}`;
      });
    } else if (child.value) {
      out += `${indent}${renderKey(key)}: ${quoteNewValue(child.value[0] ?? '', false)}${state.eol}`;
    } else {
      out += `${indent}${renderKey(key)}:${state.eol}${renderMapping(state, child, `${indent}  `)}`;
    }
  }
  return out;
}

function renderSequenceItems(state: WriteState, node: PendingNode, indent: string): string {
  let out = '';
  for (const [key, child] of node.children) {
    if (!/^\[\d+\]$/.test(key) || !child.value) throw new FormatWriteError(`cannot add "${key}" to a sequence`);
    out += `${indent}- ${quoteNewValue(child.value[0] ?? '', false)}${state.eol}`;
  }
  return out;
}

function flushAdditions(state: WriteState): void {
  for (const [container, { node }] of state.additions) {
    if (container === null) {
      // Empty document: append at the end of the text.
      const at = state.text.length;
      const lead = at > 0 && !state.text.endsWith('\n') ? state.eol : '';
      state.patches.push({ start: at, end: at, text: lead + renderMapping(state, node, '') });
      continue;
    }
    const [start, valueEnd, nodeEnd] = container.range ?? [0, 0, 0];
    if (container.flow) {
      if (container.items.length > 0 || isSeq(container)) throw new FormatWriteError('cannot add to a non-empty flow collection');
      // `{}` (a new file, or an empty nested mapping) becomes a block mapping.
      const owner = findOwnerKey(state.tree, container);
      const indent = owner ? `${indentAt(state.text, nodeStart(owner))}  ` : '';
      const block = renderMapping(state, node, indent);
      const body = block.slice(0, block.length - state.eol.length);
      // Drop the space between `key:` and `{}` so the block starts on a clean line.
      let from = start;
      while (owner && from > 0 && (state.text[from - 1] === ' ' || state.text[from - 1] === '\t')) from -= 1;
      state.patches.push({ start: from, end: valueEnd, text: owner ? state.eol + body : body });
      continue;
    }
    const firstItem = container.items[0] as unknown;
    const firstNode = (isSeq(container) ? firstItem : (firstItem as { key: YamlNode }).key) as YamlNode;
    let indent: string;
    if (isSeq(container)) {
      const lineStart = lineStartOf(state.text, nodeStart(container));
      indent = /^[ ]*/.exec(state.text.slice(lineStart))?.[0] ?? '';
    } else indent = indentAt(state.text, nodeStart(firstNode));
    const rendered = isSeq(container) ? renderSequenceItems(state, node, indent) : renderMapping(state, node, indent);
    const lead = state.text[nodeEnd - 1] === '\n' ? '' : state.eol;
    state.patches.push({ start: nodeEnd, end: nodeEnd, text: lead + rendered });
  }
}

function findOwnerKey(tree: YamlTree, container: YAMLMap | YAMLSeq): YamlNode | undefined {
  for (const leafContainer of tree.containers.values()) {
    if (!isMap(leafContainer)) continue;
    for (const pair of leafContainer.items) if (pair.value === container) return pair.key as YamlNode;
  }
  return undefined;
}

function leafIndex(tree: YamlTree): Map<string, YamlLeaf> {
  const byContext = new Map<string, YamlLeaf>();
  for (const leaf of tree.leaves) if (!byContext.has(leaf.context)) byContext.set(leaf.context, leaf);
  return byContext;
}

/**
 * Edits of existing one-line strings in a file of the fast shape (yaml-fast.ts) are patched without the
 * full parser; anything else (adds, removals, plurals, other shapes) returns null for the full path.
 */
function fastWrite(decoded: DecodedText, changes: StoreChanges, context: StoreWriteContext, ruby: boolean): string | null {
  if ((changes.add?.length ?? 0) > 0 || (changes.remove?.length ?? 0) > 0) return null;
  const root = readFastYaml(decoded.text);
  if (!root) return null;
  const byContext = new Map<string, FastLeaf>();
  for (const leaf of fastLeaves(root, ruby, fastPluralTexts(context.languageCode))) if (!byContext.has(leaf.context)) byContext.set(leaf.context, leaf);
  const patches: TextPatch[] = [];
  for (const unit of changes.update) {
    const leaf = byContext.get(unit.context);
    if (!leaf?.scalar || leaf.plural) return null;
    const value = unit.target[0] ?? '';
    if (leaf.texts[0] === value) continue;
    const original = new Scalar(leaf.texts[0]);
    original.type = leaf.scalar.style;
    patches.push({ start: leaf.scalar.start, end: leaf.scalar.end, text: quoteLikeOriginal(value, original, false) });
  }
  return applyPatches(decoded.text, patches);
}

export function writeYamlChanges(decoded: DecodedText, changes: StoreChanges, context: StoreWriteContext, ruby: boolean): string {
  const fast = fastWrite(decoded, changes, context, ruby);
  if (fast !== null) return fast;
  const tree = loadYamlTree(decoded.text);
  walkYamlTree(tree, { ruby, language: context.languageCode });
  const state: WriteState = { text: decoded.text, eol: decoded.eol, tree, patches: [], language: context.languageCode, additions: new Map() };
  const byContext = leafIndex(tree);
  const removeKeys = new Set((changes.remove ?? []).map((key: UnitKey) => key.context));
  for (const unit of [...changes.update, ...(changes.add ?? [])]) {
    if (removeKeys.has(unit.context)) continue;
    const leaf = byContext.get(unit.context);
    if (leaf) updateLeaf(state, leaf, unit.target);
    else addUnit(state, unit, ruby, byContext);
  }
  for (const contextToRemove of removeKeys) {
    const leaf = byContext.get(contextToRemove);
    if (leaf) removePair(state, leaf.pairKey, leaf.valueNode, leaf.parent);
  }
  flushAdditions(state);
  return applyPatches(decoded.text, state.patches);
}

/** A new translation file from a base: every text emptied, a Ruby language root renamed to the new language. */
export function createYamlFile(decoded: DecodedText, context: StoreWriteContext, ruby: boolean): string {
  const tree = loadYamlTree(decoded.text);
  walkYamlTree(tree, { ruby, language: context.languageCode });
  const state: WriteState = { text: decoded.text, eol: decoded.eol, tree, patches: [], language: context.languageCode, additions: new Map() };
  for (const leaf of tree.leaves) {
    if (leaf.plural) {
      for (const scalar of leaf.plural.forms.values()) state.patches.push({ start: nodeStart(scalar), end: scalar.range?.[1] ?? 0, text: "''" });
    } else if (leaf.scalar) {
      replaceScalar(state, leaf, leaf.valueNode, leaf.scalar, '');
    }
  }
  const languageKey = tree.languageKey;
  if (languageKey?.range) state.patches.push({ start: languageKey.range[0], end: languageKey.range[1], text: quoteNewValue(context.languageCode, false) });
  return applyPatches(decoded.text, state.patches);
}
