import type { ExportContext, ExportUnit } from '../store';
import { JSON_EXPORTER, JSON_NESTED_EXPORTER } from './exporters';

// formats.md §4: json / json-nested downloads built from database units, monolingual components only.

const unit = (context: string, ...target: string[]): ExportUnit => ({ context, source: [], target, note: '', location: '', flags: '', state: 20, checksum: '0' });
const context = { languageCode: 'cs', monolingual: true } as ExportContext;

describe('json exporters', () => {
  const units = [unit('app.title', 'Glossa'), unit('items', 'věc', 'věci'), unit('list[1]', 'B'), unit('app.title', 'again')];

  it('json writes a flat object, first plural form only, Python layout', () => {
    expect(JSON_EXPORTER.export(units, context).toString()).toBe('{\n    "app.title": "again",\n    "items": "věc",\n    "list[1]": "B"\n}\n');
    expect(JSON_EXPORTER).toMatchObject({ id: 'json', extension: 'json', contentType: 'application/json' });
  });

  it('json-nested nests dotted contexts and pads arrays', () => {
    expect(JSON_NESTED_EXPORTER.export(units, context).toString()).toBe(
      '{\n    "app": {\n        "title": "again"\n    },\n    "items": "věc",\n    "list": [\n        null,\n        "B"\n    ]\n}\n',
    );
    expect(JSON_NESTED_EXPORTER.export([unit('a', 'x'), unit('a.b', 'y')], context).toString()).toBe('{\n    "a": "x",\n    "a.b": "y"\n}\n');
  });

  it('accepts monolingual components only', () => {
    expect(JSON_EXPORTER.accepts('json', true)).toBe(true);
    expect(JSON_EXPORTER.accepts('po', false)).toBe(false);
  });
});
