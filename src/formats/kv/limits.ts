// Parse limits shared by the key/value readers (FORMATS-BRIEF "Rules": count every entry, duplicates
// included, and check every string as soon as it is read).

import { FormatLimitError, type ParseLimits } from '../format';

export class LimitGuard {
  private units = 0;

  constructor(private readonly limits: ParseLimits | undefined) {}

  countUnit(line: number): void {
    this.units++;
    const max = this.limits?.maxUnits;
    if (max !== undefined && this.units > max) {
      throw new FormatLimitError('units', `line ${line}: file has more than ${max} units`);
    }
  }

  checkString(value: string, line: number): void {
    const max = this.limits?.maxStringLength;
    if (max !== undefined && value.length > max) {
      throw new FormatLimitError('string-length', `line ${line}: string longer than ${max} characters`);
    }
  }
}
