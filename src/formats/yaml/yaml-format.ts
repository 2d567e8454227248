// `yaml` and `ruby-yaml` (formats.md §3.7): read with the `yaml` package's document API (node ranges),
// written back by patching only the changed scalars' ranges (yaml-writer.ts).

import { FormatParseError } from '../format';
import type { FileFormat, ParsedStore, StoreParseOptions, StoreWriteContext } from '../store';
import { decodeText, encodeText, UnitCollector } from './text-patch';
import { fastLanguageKey, fastLeaves, readFastYaml } from './yaml-fast';
import { fastPluralTexts } from './yaml-plural';
import { loadYamlTree, walkYamlTree } from './yaml-tree';
import { createYamlFile, writeYamlChanges } from './yaml-writer';

// YAML 1.2 §5.1: a stream holds printable characters only (tab, LF and CR are the C0 ones allowed).
const NON_PRINTABLE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

function rejectNonPrintable(text: string): void {
  const match = NON_PRINTABLE.exec(text);
  if (!match) return;
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < match.index; at = text.indexOf('\n', at + 1)) line++;
  const code = match[0].charCodeAt(0).toString(16).padStart(4, '0');
  throw new FormatParseError(`line ${line}: control character U+${code.toUpperCase()} is not allowed in YAML`);
}

function parseYaml(content: Buffer, ruby: boolean, options: StoreParseOptions = {}): ParsedStore {
  const { text } = decodeText(content);
  rejectNonPrintable(text);
  const collector = new UnitCollector(options.limits, options.onDuplicate);
  const fast = readFastYaml(text);
  if (fast) {
    for (const leaf of fastLeaves(fast, ruby, fastPluralTexts(options.language))) {
      collector.add(leaf.context, leaf.texts, leaf.line);
      const last = collector.units[collector.units.length - 1];
      if (leaf.plural && last.context === leaf.context) last.plural = true;
    }
    const languageKey = ruby ? fastLanguageKey(fast) : undefined;
    return { units: collector.units, ...(languageKey !== undefined ? { language: languageKey } : {}) };
  }
  const tree = loadYamlTree(text);
  walkYamlTree(tree, {
    ruby,
    language: options.language,
    onLeaf: (leaf, texts) => collector.add(leaf.context, texts, leaf.line),
  });
  // A plural unit is plural even when the language has a single category (ja: `other` only).
  const pluralContexts = new Set(tree.leaves.filter((leaf) => leaf.plural).map((leaf) => leaf.context));
  for (const unit of collector.units) if (pluralContexts.has(unit.context)) unit.plural = true;
  return { units: collector.units, ...(ruby && tree.languageKey ? { language: String(tree.languageKey.value) } : {}) };
}

function yamlFormat(id: string, name: string, ruby: boolean): FileFormat {
  return {
    id,
    name,
    kind: 'mono',
    extension: 'yml',
    parse: (content, options) => parseYaml(content, ruby, options),
    write: (current, changes, context: StoreWriteContext) => {
      const decoded = decodeText(current);
      return encodeText(decoded, writeYamlChanges(decoded, changes, context, ruby));
    },
    create: (base, context) => {
      if (!base) return Buffer.from('{}\n', 'utf8');
      const decoded = decodeText(base);
      return encodeText(decoded, createYamlFile(decoded, context, ruby));
    },
  };
}

export const YAML_FORMAT = yamlFormat('yaml', 'YAML file', false);
export const RUBY_YAML_FORMAT = yamlFormat('ruby-yaml', 'Ruby YAML file', true);
