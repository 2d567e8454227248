// Hostile files must end quickly with units or a FormatParseError, never hang (FORMATS-BRIEF "Rules").

import { FormatParseError } from '../format';
import { KV_FORMATS } from './index';

const big = 2_000_000;
const inputs: Record<string, Buffer[]> = {
  properties: [
    Buffer.from('k=' + '\\'.repeat(big)),
    Buffer.from('k=' + '\\\n'.repeat(big / 2)),
    Buffer.from('\\u'.repeat(big / 2)),
    Buffer.from(('#' + ' '.repeat(100) + '\n').repeat(big / 101)),
  ],
  strings: [
    Buffer.from('/*'.repeat(big / 2)),
    Buffer.from('"' + '\\"'.repeat(big / 2)),
    Buffer.from('"a" = "' + '\\'.repeat(big)),
    Buffer.from('\n'.repeat(big) + '"a" = "b";'),
  ],
  csv: [Buffer.from('"' + '""'.repeat(big / 2)), Buffer.from((',' + '"'.repeat(3)).repeat(big / 4)), Buffer.from('\r'.repeat(big))],
};

describe('kv formats on hostile input', () => {
  for (const format of KV_FORMATS) {
    const family = format.id.split('-')[0];
    it(`${format.id} ends with units or a parse error`, () => {
      for (const content of inputs[family]) {
        try {
          format.parse(content, { limits: { maxUnits: 100_000, maxStringLength: 10_000_000 } });
        } catch (error) {
          expect(error).toBeInstanceOf(FormatParseError);
        }
      }
    });
  }
});
