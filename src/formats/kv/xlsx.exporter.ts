// The `xlsx` converted download (formats.md §4): the CSV exporter's columns in the active sheet of a minimal
// Office Open XML workbook (content types, workbook, one worksheet, shared strings, a default style), zipped
// with fflate. Weblate builds it with openpyxl and names the sheet after the target language.

import { zipSync } from 'fflate';
import type { ExportContext, ExportUnit, Exporter } from '../store';
import { CSV_FIELDS } from './csv-fields';
import { exportRow } from './csv.exporter';

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/** A fixed timestamp keeps the archive byte-identical for identical content. */
const ZIP_MTIME = new Date(Date.UTC(2000, 0, 1));

/** Characters XML 1.0 cannot hold (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF) are dropped. */
function xmlText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text[i] + text[i + 1];
        i++;
      }
      continue;
    }
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0xdc00 && code <= 0xdfff) || code === 0xfffe || code === 0xffff) {
      continue;
    }
    const char = text[i];
    out += char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : char === '"' ? '&quot;' : char;
  }
  return out;
}

function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Excel sheet names: at most 31 characters, none of []:*?/\ (openpyxl refuses them). */
function sheetName(languageCode: string): string {
  const cleaned = languageCode.replace(/[[\]:*?/\\]/g, '_').slice(0, 31);
  return cleaned === '' ? 'Weblate' : cleaned;
}

class SharedStrings {
  private readonly index = new Map<string, number>();
  private readonly items: string[] = [];
  count = 0;

  add(text: string): number {
    this.count++;
    let id = this.index.get(text);
    if (id === undefined) {
      id = this.items.length;
      this.index.set(text, id);
      this.items.push(text);
    }
    return id;
  }

  xml(): string {
    const items = this.items.map((text) => `<si><t xml:space="preserve">${xmlText(text)}</t></si>`).join('');
    return `${XML_DECLARATION}<sst xmlns="${MAIN_NS}" count="${this.count}" uniqueCount="${this.items.length}">${items}</sst>`;
  }
}

function worksheetXml(rows: readonly (readonly string[])[], strings: SharedStrings): string {
  const body = rows
    .map((cells, rowIndex) => {
      const r = rowIndex + 1;
      const cellXml = cells
        .map((value, column) => (value === '' ? '' : `<c r="${columnName(column)}${r}" t="s"><v>${strings.add(value)}</v></c>`))
        .join('');
      return `<row r="${r}">${cellXml}</row>`;
    })
    .join('');
  return `${XML_DECLARATION}<worksheet xmlns="${MAIN_NS}"><sheetData>${body}</sheetData></worksheet>`;
}

const STYLES_XML =
  `${XML_DECLARATION}<styleSheet xmlns="${MAIN_NS}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

const CONTENT_TYPES_XML =
  `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
  '</Types>';

const ROOT_RELS_XML =
  `${XML_DECLARATION}<Relationships xmlns="${PKG_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

const WORKBOOK_RELS_XML =
  `${XML_DECLARATION}<Relationships xmlns="${PKG_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
  `<Relationship Id="rId3" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;

function workbookXml(name: string): string {
  return `${XML_DECLARATION}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="${xmlText(name)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
}

export function exportXlsx(units: readonly ExportUnit[], context: Pick<ExportContext, 'languageCode'>): Buffer {
  // openpyxl stores cells as typed strings, never formulas, so the CSV formula guard is not applied here.
  const rows: string[][] = [[...CSV_FIELDS]];
  for (const unit of units) {
    const row = exportRow(unit, false);
    rows.push(CSV_FIELDS.map((field) => row[field]));
  }
  const strings = new SharedStrings();
  const sheet = worksheetXml(rows, strings);
  const encode = (xml: string): Uint8Array => new Uint8Array(Buffer.from(xml, 'utf8'));
  const zip = zipSync(
    {
      '[Content_Types].xml': encode(CONTENT_TYPES_XML),
      '_rels/.rels': encode(ROOT_RELS_XML),
      'xl/workbook.xml': encode(workbookXml(sheetName(context.languageCode))),
      'xl/_rels/workbook.xml.rels': encode(WORKBOOK_RELS_XML),
      'xl/styles.xml': encode(STYLES_XML),
      'xl/worksheets/sheet1.xml': encode(sheet),
      'xl/sharedStrings.xml': encode(strings.xml()),
    },
    { level: 6, mtime: ZIP_MTIME },
  );
  return Buffer.from(zip);
}

export const XLSX_EXPORTER: Exporter = {
  id: 'xlsx',
  extension: 'xlsx',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  accepts: () => true,
  export: (units, context) => exportXlsx(units, context),
};
