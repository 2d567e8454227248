import { spawnSync } from 'node:child_process';
import { JSON_NESTED_FILE_FORMAT as format } from './json.format';
import { update, writeContext } from './spec-helpers';

// A second reader: Python's own json module (what translate-toolkit reads JSON with) must accept every file
// the patcher writes and see the same leaves as our parser. Skipped when python3 is missing.

const FLATTEN = `
import json, sys
def walk(value, path, out):
    if isinstance(value, dict):
        for key, item in value.items():
            walk(item, path + ('.' if path else '') + key, out)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            walk(item, path + '[%d]' % index, out)
    else:
        out.append([path, '' if value is None else (('True' if value else 'False') if isinstance(value, bool) else str(value))])
    return out
for document in json.load(sys.stdin):
    print(json.dumps(walk(json.loads(document), '', [])))
`;

const python = spawnSync('python3', ['--version']).status === 0;

(python ? describe : describe.skip)('written files read back by Python json', () => {
  it('sees the same leaves as our parser', () => {
    const base = '{\r\n\t"a": {"b": "x", "c": [1, 2.50, null]},\r\n\t"d": "\\u00e9\\n",\r\n\t"e": {}\r\n}';
    const outputs = [
      format.write(Buffer.from(base), { update: [update('a.b', 'y "q" \\ \u2028'), update('a.c[1]', '3.0'), update('e.f', 'new'), update('g.h[1]', 'pad')] }, writeContext('cs', 3)),
      format.write(Buffer.from(base), { update: [], remove: [{ context: 'a.b', source: [] }, { context: 'd', source: [] }] }, writeContext('cs', 3)),
      format.write(Buffer.from(base), { update: [], remove: ['a.b', 'a.c[0]', 'a.c[1]', 'a.c[2]', 'd'].map((context) => ({ context, source: [] })) }, writeContext('cs', 3)),
      format.create(Buffer.from(base), writeContext('cs', 3))!,
    ].map((output) => output.toString('utf8'));
    const run = spawnSync('python3', ['-c', FLATTEN], { input: JSON.stringify(outputs), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const seen = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Array<[string, string]>);
    expect(seen).toEqual(outputs.map((output) => format.parse(Buffer.from(output)).units.map((unit) => [unit.context, unit.target[0]])));
    expect(seen[0]).toEqual([
      ['a.b', 'y "q" \\ \u2028'],
      ['a.c[0]', '1'],
      ['a.c[1]', '3.0'],
      ['a.c[2]', ''],
      ['d', 'é\n'],
      ['e.f', 'new'],
      ['g.h[0]', ''],
      ['g.h[1]', 'pad'],
    ]);
    // The emptied `a` goes with its last leaf; the `{}` that never held a unit stays (the patcher leaves untouched parts alone).
    expect(outputs[2]).toBe('{\r\n\t"e": {}\r\n}');
  });
});
