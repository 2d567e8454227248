import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { FILE_FORMATS } from '../../src/formats/format.registry';

// Issue 11 "Done means": one e2e row per file format. A format registered without a row in the table of
// test/e2e/formats-*.e2e-spec.ts (test/support/format-rows.ts) fails here, so the table cannot fall behind the
// registry again (poxliff, ts, stringsdict, strings, laravel… had none).

describe('format rows cover the registry', () => {
  it('has a row for every registered file_format id, and none for an unknown one', () => {
    const dir = path.join(process.cwd(), 'test/e2e');
    const rows = new Set<string>();
    for (const name of readdirSync(dir).filter((file) => /^formats-.*\.e2e-spec\.ts$/.test(file))) {
      for (const match of readFileSync(path.join(dir, name), 'utf8').matchAll(/^\s+format: '([a-z0-9-]+)',$/gm)) rows.add(match[1]);
    }
    // json and json-nested share one row builder (formats-roundtrip), named by a parameter.
    for (const match of readFileSync(path.join(dir, 'formats-roundtrip.e2e-spec.ts'), 'utf8').matchAll(/jsonRow\('([a-z0-9-]+)'/g)) rows.add(match[1]);
    const registered = [...FILE_FORMATS.keys()];
    expect(registered.filter((id) => !rows.has(id))).toEqual([]);
    expect([...rows].filter((id) => !FILE_FORMATS.has(id))).toEqual([]);
  });
});
