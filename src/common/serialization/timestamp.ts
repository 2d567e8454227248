const PG_TIMESTAMPTZ = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}(?::?\d{2})?(?::?\d{2})?)?$/;

/**
 * Formats a timestamp as Weblate's API writes it: UTC, six fractional digits, `Z` suffix
 * (api-spec.md Unit.timestamp). Accepts PostgreSQL's text form, which keeps microseconds, or a Date.
 */
export function formatTimestamp(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  const match = PG_TIMESTAMPTZ.exec(value);
  if (!match) throw new Error(`Unrecognised timestamp: ${value}`);
  const [, date, time, fraction = '', zone = 'Z'] = match;
  const micros = fraction.padEnd(6, '0');
  const offset = zone === 'Z' ? 'Z' : normaliseOffset(zone);
  if (offset === 'Z' || offset === '+00:00') return `${date}T${time}.${micros}Z`;
  // Shift to UTC through Date (whole seconds are exact); the microseconds do not depend on the zone.
  const utc = new Date(`${date}T${time}${offset}`).toISOString().slice(0, 19);
  return `${utc}.${micros}Z`;
}

function normaliseOffset(zone: string): string {
  const digits = zone.slice(1).replace(/:/g, '');
  const hours = digits.slice(0, 2);
  const minutes = digits.slice(2, 4) || '00';
  return `${zone[0]}${hours}:${minutes}`;
}
