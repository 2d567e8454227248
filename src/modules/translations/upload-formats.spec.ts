import { getFileFormat } from '../../formats/format.registry';
import type { FileFormat } from '../../formats/store';
import { uploadFormatCandidates } from './upload-formats';

// formats.md §5: the order an upload is tried in, and detection from content when the name tells nothing.

const format = (id: string): FileFormat => getFileFormat(id)!;
const ids = (formats: FileFormat[]): string[] => formats.map((f) => f.id);
const PO = Buffer.from('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n');

describe('uploadFormatCandidates', () => {
  it('tries only the component format when neither the name nor the content tells another', () => {
    expect(ids(uploadFormatCandidates(format('json-nested'), 'file', Buffer.from('{"a": "b"}')))).toEqual(['json-nested']);
    expect(ids(uploadFormatCandidates(format('po'), 'messages.po', PO))).toEqual(['po']);
  });

  it('puts the named format first when its extension differs from the component format’s', () => {
    expect(ids(uploadFormatCandidates(format('json-nested'), 'cs.po', PO))).toEqual(['po', 'json-nested']);
    expect(ids(uploadFormatCandidates(format('json-nested'), 'CS.PO', PO))).toEqual(['po', 'json-nested']);
  });

  it('puts the named format second when it shares the component format’s extension', () => {
    expect(ids(uploadFormatCandidates(format('po-mono'), 'cs.po', PO))).toEqual(['po-mono', 'po']);
  });

  it('detects PO, XLIFF and Qt TS from the first 300 bytes when the name has no known extension', () => {
    expect(ids(uploadFormatCandidates(format('json'), 'upload', PO))).toEqual(['json', 'po']);
    expect(ids(uploadFormatCandidates(format('json'), 'upload.txt', Buffer.from('<?xml version="1.0"?>\n<xliff version="1.2">')))).toEqual(['json', 'xliff']);
    expect(ids(uploadFormatCandidates(format('json'), 'upload', Buffer.from('<?xml version="1.0"?>\n<!DOCTYPE TS>\n<TS>')))).toEqual(['json', 'ts']);
    // A marker past the first 300 bytes is not looked for.
    expect(ids(uploadFormatCandidates(format('json'), 'upload', Buffer.from(`${' '.repeat(300)}msgid ""`)))).toEqual(['json']);
  });

  it('does not repeat the component format', () => {
    expect(ids(uploadFormatCandidates(format('po'), 'upload', PO))).toEqual(['po']);
  });
});
