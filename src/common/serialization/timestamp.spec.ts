import { formatTimestamp } from './timestamp';

describe('formatTimestamp', () => {
  it('keeps microseconds from PostgreSQL text', () => {
    expect(formatTimestamp('2026-11-22 07:20:43.123456+00')).toBe('2026-11-22T07:20:43.123456Z');
  });

  it('pads shorter fractions and missing fractions', () => {
    expect(formatTimestamp('2026-11-22 07:20:43.1+00')).toBe('2026-11-22T07:20:43.100000Z');
    expect(formatTimestamp('2026-11-22 07:20:43+00')).toBe('2026-11-22T07:20:43.000000Z');
  });

  it('converts other offsets to UTC', () => {
    expect(formatTimestamp('2026-11-22 09:20:43.000001+02')).toBe('2026-11-22T07:20:43.000001Z');
    expect(formatTimestamp('2026-11-22 01:50:43.5-05:30')).toBe('2026-11-22T07:20:43.500000Z');
  });

  it('formats Dates and null', () => {
    expect(formatTimestamp(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678000Z');
    expect(formatTimestamp(null)).toBeNull();
  });
});
