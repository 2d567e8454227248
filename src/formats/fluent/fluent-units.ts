// Reads a Fluent resource into units (formats.md §3.17): each message and term value is a unit named by
// its identifier (a term without its `-` sigil), each attribute a unit `id.attribute`; the text is the
// pattern as Fluent's own serializer prints it (single-line values without the leading space, multi-line
// values with their leading newline and indentation, select expressions kept as Fluent syntax). The comment
// attached to an entry is its note.

import { FluentParser, FluentSerializer, Identifier, Message, Term, type Attribute, type Pattern, type Resource } from '@fluent/syntax';
import { FormatParseError } from '../format';
import type { LineIndex } from '../yaml/text-patch';

export interface FluentEntryUnit {
  context: string;
  text: string;
  note: string;
  line: number;
  entry: Message | Term;
  attribute?: Attribute;
}

const serializer = new FluentSerializer();

/** The unit text of a pattern: what the serializer prints after `id =`. */
export function patternText(pattern: Pattern): string {
  const printed = serializer.serializeEntry(new Message(new Identifier('x'), pattern, [], null));
  const text = printed.slice('x ='.length).replace(/\n$/, '');
  return text.startsWith(' ') ? text.slice(1) : text;
}

export function parseFluent(text: string, lines: LineIndex): Resource {
  let resource: Resource;
  try {
    resource = new FluentParser({ withSpans: true }).parse(text);
  } catch (error) {
    // The parser recurses per nested placeable; a hostile file can exhaust the stack.
    if (error instanceof RangeError) throw new FormatParseError('line 1: placeables nested too deeply');
    throw error;
  }
  for (const entry of resource.body) {
    if (entry.type === 'Junk') {
      const annotation = entry.annotations[0];
      const offset = entry.span?.start ?? annotation?.span?.start ?? 0;
      throw new FormatParseError(`line ${lines.line(offset)}: ${annotation ? `${annotation.code} ${annotation.message}` : 'invalid Fluent syntax'}`);
    }
  }
  return resource;
}

/** The units of a resource in file order. */
export function fluentUnits(resource: Resource, lines: LineIndex, source?: string): FluentEntryUnit[] {
  // A one-line pattern without placeables prints exactly as written, so the serializer can be skipped.
  const textOf = (pattern: Pattern): string => {
    if (source !== undefined && pattern.span) {
      const raw = source.slice(pattern.span.start, pattern.span.end);
      if (!/[{}\n\r]/.test(raw)) return raw;
    }
    return patternText(pattern);
  };
  const units: FluentEntryUnit[] = [];
  for (const entry of resource.body) {
    if (!(entry instanceof Message) && !(entry instanceof Term)) continue;
    const note = entry.comment?.content ?? '';
    const id = entry.id.name;
    const line = lines.line(entry.id.span?.start ?? 0);
    if (entry.value) units.push({ context: id, text: textOf(entry.value), note, line, entry });
    for (const attribute of entry.attributes) {
      units.push({
        context: `${id}.${attribute.id.name}`,
        text: textOf(attribute.value),
        note,
        line: lines.line(attribute.span?.start ?? 0),
        entry,
        attribute,
      });
    }
  }
  return units;
}
