// Converted downloads built from database units (formats.md §4): `xliff` (XLIFF 1.1 with gettext
// extensions, plural groups), `xliff11` (plain XLIFF 1.1), `tbx`, `tmx` and `aresource` (monolingual only).
// Element layout follows what translate-toolkit writes for Weblate's exporters.

import { pluralCategories } from '../plural-categories';
import type { ExportContext, ExportUnit, Exporter } from '../store';
import { writeAndroidValue } from './android-value';
import { escapeXmlAttribute, escapeXmlText } from './xml-escape';
import { splitFlags } from './xml-flags';
import { readXmlDocument } from './xml-tokenizer';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Characters XML 1.0 cannot hold are dropped: Weblate's exporters strip control characters (formats.md §4). */
 
const stripControl = (text: string): string => text.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g, '');
const text = (value: string): string => escapeXmlText(stripControl(value));
const attribute = (value: string): string => escapeXmlAttribute(stripControl(value));

const FUZZY = 10;

/**
 * gettext-profile approval: every translated, non-fuzzy unit is `approved="yes"` (po2xliff's convention, which
 * translate-toolkit reads back as "not fuzzy"; Weblate 4.x exports all translated units so, formats.md §4).
 */
function approval(unit: ExportUnit): string {
  return hasTarget(unit) ? ` approved="${unit.state > FUZZY ? 'yes' : 'no'}"` : '';
}

function hasTarget(unit: ExportUnit): boolean {
  return unit.target.some((form) => form !== '');
}

/** `po-reference` context groups for `file:line` locations (how po2xliff writes them). */
function locationGroups(location: string): string {
  return location
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const match = /^(.*):(\d+)$/.exec(part);
      const file = match ? match[1] : part;
      const line = match ? `<context context-type="linenumber">${match[2]}</context>` : '';
      return `<context-group name="po-reference" purpose="location"><context context-type="sourcefile">${text(file)}</context>${line}</context-group>`;
    })
    .map((group) => `\n        ${group}`)
    .join('');
}

function unitAttributes(unit: ExportUnit, id: string, withApproval: boolean): string {
  let attributes = ' xml:space="preserve"';
  if (withApproval) attributes += approval(unit);
  attributes += ` id="${attribute(id)}"`;
  if (unit.flags) attributes += ` weblate-flags="${attribute(unit.flags)}"`;
  const maxLength = splitFlags(unit.flags).find((flag) => flag.startsWith('max-length:'));
  if (maxLength) attributes += ` maxwidth="${attribute(maxLength.slice('max-length:'.length))}" size-unit="char"`;
  return attributes;
}

function targetElement(form: string, unit: ExportUnit): string {
  if (form === '') return '';
  const state = unit.state === FUZZY ? 'needs-translation' : 'translated';
  return `<target state="${state}">${text(form)}</target>`;
}

function noteElement(note: string, indent: string): string {
  return note ? `\n${indent}<note from="developer">${text(note)}</note>` : '';
}

function xliffUnit(unit: ExportUnit, withPlurals: boolean, context: ExportContext): string {
  const id = unit.context || unit.checksum;
  const plural = withPlurals && (unit.source.length > 1 || unit.target.length > 1);
  if (!plural) {
    const target = targetElement(unit.target[0] ?? '', unit);
    return (
      `      <trans-unit${unitAttributes(unit, id, true)}><source>${text(unit.source[0] ?? '')}</source>` +
      (target ? `\n        ${target}` : '') +
      locationGroups(unit.location) +
      noteElement(unit.note, '        ') +
      '\n      </trans-unit>\n'
    );
  }
  const count = Math.max(unit.target.length, context.plural.number, 2);
  const forms = Array.from({ length: count }, (_, index) => {
    const source = unit.source[Math.min(index, unit.source.length - 1)] ?? '';
    const target = targetElement(unit.target[index] ?? '', unit);
    return `        <trans-unit xml:space="preserve"${approval(unit)} id="${attribute(`${id}[${index}]`)}"><source>${text(source)}</source>${target}</trans-unit>\n`;
  });
  const flags = unit.flags ? ` weblate-flags="${attribute(unit.flags)}"` : '';
  return (
    `      <group restype="x-gettext-plurals" id="${attribute(id)}"${approval(unit)}${flags}>` +
    locationGroups(unit.location) +
    '\n' +
    forms.join('') +
    (unit.note ? `        <note from="developer">${text(unit.note)}</note>\n` : '') +
    '      </group>\n'
  );
}

function xliffDocument(units: readonly ExportUnit[], context: ExportContext, withPlurals: boolean): Buffer {
  const body = units.map((unit) => xliffUnit(unit, withPlurals, context)).join('');
  return Buffer.from(
    DECLARATION +
      '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.1" version="1.1">\n' +
      `  <file original="NoName" source-language="${attribute(context.sourceLanguageCode)}" datatype="plaintext" target-language="${attribute(context.languageCode)}">\n` +
      `    <body>\n${body}    </body>\n  </file>\n</xliff>\n`,
    'utf8',
  );
}

function tbxDocument(units: readonly ExportUnit[], context: ExportContext): Buffer {
  const entries = units.map((unit) => {
    const id = unit.context ? ` id="${attribute(unit.context)}"` : '';
    return (
      `            <termEntry${id}>\n` +
      `                <langSet xml:lang="${attribute(context.sourceLanguageCode)}"><tig><term>${text(unit.source[0] ?? '')}</term></tig></langSet>\n` +
      `                <langSet xml:lang="${attribute(context.languageCode)}"><tig><term>${text(unit.target[0] ?? '')}</term></tig></langSet>\n` +
      (unit.note ? `                <note from="developer">${text(unit.note)}</note>\n` : '') +
      '            </termEntry>\n'
    );
  });
  return Buffer.from(
    DECLARATION +
      '<!DOCTYPE martif PUBLIC "ISO 12200:1999A//DTD MARTIF core (DXFcdV04)//EN" "TBXcdv04.dtd">\n' +
      `<martif type="TBX" xml:lang="${attribute(context.sourceLanguageCode)}">\n` +
      '    <martifHeader>\n        <fileDesc>\n            <sourceDesc>\n' +
      `                <p>${text(context.generator)}</p>\n` +
      '            </sourceDesc>\n        </fileDesc>\n    </martifHeader>\n' +
      `    <text>\n        <body>\n${entries.join('')}        </body>\n    </text>\n</martif>\n`,
    'utf8',
  );
}

function tmxDocument(units: readonly ExportUnit[], context: ExportContext): Buffer {
  const [tool, ...version] = context.generator.split(' ');
  const entries = units.map(
    (unit) =>
      '    <tu>\n' +
      `      <tuv xml:lang="${attribute(context.sourceLanguageCode)}">\n        <seg>${text(unit.source[0] ?? '')}</seg>\n      </tuv>\n` +
      `      <tuv xml:lang="${attribute(context.languageCode)}">\n        <seg>${text(unit.target[0] ?? '')}</seg>\n      </tuv>\n` +
      (unit.note ? `      <note>${text(unit.note)}</note>\n` : '') +
      '    </tu>\n',
  );
  return Buffer.from(
    DECLARATION +
      '<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n<tmx version="1.4">\n' +
      `  <header creationtool="${attribute(tool || 'Glossa')}" creationtoolversion="${attribute(version.join(' '))}" segtype="sentence" o-tmf="UTF-8" adminlang="en" srclang="${attribute(context.sourceLanguageCode)}" datatype="PlainText"/>\n` +
      `  <body>\n${entries.join('')}  </body>\n</tmx>\n`,
    'utf8',
  );
}

function androidDocument(units: readonly ExportUnit[], context: ExportContext): Buffer {
  const scope = readXmlDocument('<resources/>').root;
  const categories = pluralCategories(context.languageCode);
  const entries = units.map((unit) => {
    const name = attribute(unit.context || unit.checksum);
    // XML comments cannot hold "--": Weblate collapses such runs to "-" (formats.md §4).
    const note = unit.note ? `    <!--${stripControl(unit.note).replace(/-{2,}/g, '-').replace(/-$/, '- ')}-->\n` : '';
    const plural = unit.source.length > 1 || unit.target.length > 1;
    if (!plural) return `${note}    <string name="${name}">${writeAndroidValue(stripControl(unit.target[0] ?? ''), scope)}</string>\n`;
    const items = categories.map((category, index) => ({ category: category as string, form: unit.target[index] ?? '' }));
    if (!categories.includes('other')) items.push({ category: 'other', form: items.find((item) => item.category === 'many')?.form ?? '' });
    const lines = items.map((item) => `        <item quantity="${item.category}">${writeAndroidValue(stripControl(item.form), scope)}</item>\n`);
    return `${note}    <plurals name="${name}">\n${lines.join('')}    </plurals>\n`;
  });
  return Buffer.from(`<?xml version="1.0" encoding="utf-8"?>\n<resources>\n${entries.join('')}</resources>\n`, 'utf8');
}

const anyComponent = (): boolean => true;

export const XLIFF_EXPORTER: Exporter = {
  id: 'xliff',
  extension: 'xlf',
  contentType: 'application/x-xliff+xml',
  accepts: anyComponent,
  export: (units, context) => xliffDocument(units, context, true),
};

export const XLIFF11_EXPORTER: Exporter = {
  id: 'xliff11',
  extension: 'xlf',
  contentType: 'application/x-xliff+xml',
  accepts: anyComponent,
  export: (units, context) => xliffDocument(units, context, false),
};

export const TBX_EXPORTER: Exporter = {
  id: 'tbx',
  extension: 'tbx',
  contentType: 'application/x-tbx',
  accepts: anyComponent,
  export: tbxDocument,
};

export const TMX_EXPORTER: Exporter = {
  id: 'tmx',
  extension: 'tmx',
  contentType: 'application/x-tmx',
  accepts: anyComponent,
  export: tmxDocument,
};

export const ANDROID_EXPORTER: Exporter = {
  id: 'aresource',
  extension: 'xml',
  contentType: 'application/xml',
  accepts: (_format, monolingual) => monolingual,
  export: androidDocument,
};

