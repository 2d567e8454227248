// .NET RESX reader (formats.md §3.13): each `<data>` under `<root>` is a monolingual unit keyed by its `name`;
// `<resheader>`, `<metadata>`, `<assembly>` and the schema are not units and stay as they are.

import { FormatParseError } from '../format';
import type { StoreParseOptions, StoreUnit } from '../store';
import { firstChildElement, getAttribute, type XmlElement } from './xml-tokenizer';
import { elementText, expectRoot, loadSparseXml, UnitSink, type LoadedXml } from './xml2-common';
import { flagsFromAttributes } from './xml2-flags';

export interface ResxEntry {
  element: XmlElement;
  name: string;
  value: XmlElement | undefined;
  /** The unit; null for a duplicate name (the first one is the unit). */
  unit: StoreUnit | null;
}

export interface ResxFile extends LoadedXml {
  /** The entries `keep` chose, in file order (see readResx). */
  entries: ResxEntry[];
  units: StoreUnit[];
}

/**
 * Reads a RESX file. `keep` names the entries whose subtree a writer patches (others keep offsets only, see
 * xml2-sparse.ts); `lean` (writers) skips notes, flags, limits and the duplicate check (first name wins).
 */
export function readResx(content: Buffer, options?: StoreParseOptions, keep?: (name: string) => boolean, lean = false): ResxFile {
  const sink = new UnitSink<StoreUnit>(options, (unit) => `duplicate key "${unit.context}"`);
  const entries: ResxEntry[] = [];
  let position = 0;
  const readData = (element: XmlElement): boolean => {
    sink.countEntry(element.line);
    const name = getAttribute(element, 'name');
    if (name === undefined) throw new FormatParseError(`line ${element.line}: <data> without a name attribute`);
    const kept = keep?.(name) ?? false;
    const value = firstChildElement(element, 'value');
    const unit: StoreUnit = {
      context: name,
      // Monolingual: the source is the template's value (or the name without a template), set by the sync layer.
      source: [],
      target: [elementText(value) ?? ''],
      plural: false,
      note: lean ? '' : (elementText(firstChildElement(element, 'comment')) ?? ''),
      // Weblate's RESXUnit reports no locations.
      location: '',
      flags: lean ? '' : flagsFromAttributes(element),
      previousSource: '',
      fuzzy: false,
      approved: false,
      readOnly: false,
      position: (position += 1),
      line: element.line,
    };
    if (!lean) sink.checkLength(element.line, unit.context, unit.target[0], unit.note);
    const isUnit = lean || sink.push(unit, name);
    // Only kept entries are listed: a parse needs the units alone, a writer the entries it patches.
    if (kept) entries.push({ element, name, value, unit: isUnit ? unit : null });
    return kept;
  };
  const loaded = loadSparseXml(content, {
    isEntry: (element) => element.localName === 'data' && element.parent?.parent === null,
    onEntry: readData,
  });
  expectRoot(loaded.doc, 'root');
  return { ...loaded, entries, units: sink.units };
}
