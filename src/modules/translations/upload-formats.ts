import { formatForContent, formatForFilename } from '../../formats/format.registry';
import type { FileFormat } from '../../formats/store';

/**
 * The formats an uploaded file is tried in, first to last, as Weblate's `try_load` orders them (formats.md §5):
 * the component's format; the format the file name's extension names, first when its extension differs from
 * the component format's, second otherwise; last translate-toolkit's own detection, which goes by the
 * extension and, when the name tells nothing, by the first bytes of the file (`<xliff `, `msgid "`,
 * `<!DOCTYPE TS>`). Nothing is parsed here: the caller parses one candidate after the other and stops at the
 * first that reads the file.
 */
export function uploadFormatCandidates(component: FileFormat, filename: string, content: Buffer): FileFormat[] {
  const candidates = [component];
  const named = formatForFilename(filename);
  if (named && named !== component) {
    if (named.extension === component.extension) candidates.push(named);
    else candidates.unshift(named);
  }
  const detected = named ?? formatForContent(content);
  if (detected && !candidates.includes(detected)) candidates.push(detected);
  return candidates;
}
