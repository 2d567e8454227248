import { ARB_FORMAT } from './arb.format';
import { JSON_FILE_FORMAT, JSON_NESTED_FILE_FORMAT as format } from './json.format';
import { update, writeContext } from './spec-helpers';

// Large files must come out right: every unit read, one edit changing only its value, bulk updates and
// removals exact. How fast this runs is measured by `npm run bench -- --only=formats`, never here.

function bigFile(keys: number): Buffer {
  const sections: string[] = [];
  for (let s = 0; s < keys / 50; s++) {
    const leaves: string[] = [];
    for (let k = 0; k < 50; k++) leaves.push(`        "key${k}": "Value ${s}/${k} with some text, \\"quoted\\" and ümlauts"`);
    sections.push(`    "section${s}": {\n${leaves.join(',\n')}\n    }`);
  }
  return Buffer.from(`{\n${sections.join(',\n')}\n}\n`, 'utf8');
}

describe('json-nested at 50,000 keys', () => {
  it('reads every key and writes one edit changing only that value', () => {
    const content = bigFile(50_000);
    expect(format.parse(content).units).toHaveLength(50_000);
    const written = format.write(content, { update: [update('section500.key7', 'Změněno')] }, writeContext('cs', 3));
    expect(written.toString('utf8')).toBe(content.toString('utf8').replace('"Value 500/7 with some text, \\"quoted\\" and ümlauts"', '"Změněno"'));
  });
});

describe('flat 50,000-key files', () => {
  const keys = Array.from({ length: 50_000 }, (_, index) => `key${index}`);

  it('updates every key and removes half of them exactly', () => {
    const content = Buffer.from(`{\n${keys.map((key) => `    "${key}": "v"`).join(',\n')}\n}\n`);
    const updated = JSON_FILE_FORMAT.write(content, { update: keys.map((key) => update(key, 'w')) }, writeContext('cs', 3));
    expect(updated.toString()).toBe(content.toString().replace(/"v"/g, '"w"'));
    const removed = keys.filter((_, index) => index % 2 === 1).map((context) => ({ context, source: [] }));
    const pruned = JSON_FILE_FORMAT.write(content, { update: [], remove: removed }, writeContext('cs', 3));
    expect(JSON_FILE_FORMAT.parse(pruned).units).toHaveLength(25_000);
  });

  it('reads a 50,000-message ARB file with metadata', () => {
    const content = Buffer.from(`{\n${keys.map((key) => `  "${key}": "v",\n  "@${key}": {"description": "d"}`).join(',\n')}\n}\n`);
    const parsed = ARB_FORMAT.parse(content);
    expect(parsed.units).toHaveLength(50_000);
    expect(parsed.units[49_999].note).toBe('d');
  });
});
