import { flatPathFromContext } from '../json/json-paths';
import type { FileFormat } from '../store';
import { placeholdersFlag } from './family-units';
import { memberOf, type JsonNode, type JsonObjectNode } from './json-tree';
import { keyedJsonFormat } from './keyed-json';

// ARB, Flutter's resource bundle (formats.md §3.10): top-level `key: "message"` entries; `@key` holds the
// entry's metadata (description -> note, placeholders -> `placeholders:` flag) and `@@…` keys a header that
// is kept as it is. ICU plural/select syntax stays inside the string as Weblate keeps it: no plural split.

function describeMetadata(metadata: JsonNode): { note: string; flags: string } | undefined {
  if (metadata.kind !== 'object') return undefined;
  const description = memberOf(metadata, 'description')?.value;
  const placeholders = memberOf(metadata, 'placeholders')?.value;
  const names = placeholders?.kind === 'object' && placeholders.members.length > 0 ? [...new Set(placeholders.members.map((member) => member.key))] : [];
  return {
    note: description?.kind === 'string' ? description.value : '',
    // Weblate 4.x spells ARB placeholders `{NAME}` (upper-cased, §3.10).
    flags: names.length > 0 ? placeholdersFlag(names, (upper) => `{${upper}}`) : '',
  };
}

/**
 * The `@key` metadata of the root, indexed in one pass (the last `@key` wins, as in Python's json). Looking
 * each key up in the root's member index instead cost a list per root member: with 50,000 messages that
 * was most of an ARB parse, in garbage collection (profiled with `node --cpu-prof`).
 */
function describer(root: JsonObjectNode): (key: string) => { note: string; flags: string } | undefined {
  const metadata = new Map<string, JsonNode>();
  for (const member of root.members) {
    if (member.key.charCodeAt(0) === 0x40 /* @ */ && member.key.charCodeAt(1) !== 0x40) metadata.set(member.key.slice(1), member.value);
  }
  return (key) => {
    const node = metadata.get(key);
    return node ? describeMetadata(node) : undefined;
  };
}

export const ARB_FORMAT: FileFormat = keyedJsonFormat({
  id: 'arb',
  name: 'ARB file',
  // Weblate reports the extension `json` for ARB (§3.10).
  extension: 'json',
  kind: 'both',
  // translate-toolkit writes ARB with a 2-space indent (§3.10).
  defaultIndent: '  ',
  pathFromContext: flatPathFromContext,
  isMetadataKey: (key) => key.startsWith('@'),
  describer,
  // A new entry brings its template metadata along, right after it (Weblate 4.x deep-copies the template unit).
  companions: (basePath) => {
    const [first] = basePath;
    return basePath.length === 1 && 'key' in first ? [[{ key: `@${first.key}` }]] : [];
  },
  onCreate: (patcher, context) => {
    const locale = patcher.nodeAt([{ key: '@@locale' }]);
    if (locale?.kind === 'string' && locale.value !== context.languageCode) patcher.set([{ key: '@@locale' }], { type: 'string', value: context.languageCode });
  },
});
