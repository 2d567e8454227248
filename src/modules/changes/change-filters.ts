import { ApiValidationError } from '../../common/http/api-errors';
import { isKnownAction } from './change-actions';

// The filters of every changes list (weblate-api.md §7.2), as Weblate's django-filter ChangeFilter reads them:
// `user` (exact username), `action` (repeatable, OR-combined, must be a known code), `timestamp_after` and
// `timestamp_before` (inclusive ISO 8601 bounds). Empty values are ignored, as django-filter ignores them.

export interface ChangeFilters {
  username?: string;
  actions?: number[];
  /** ISO 8601 in UTC, ready for a `::timestamptz` cast. */
  after?: string;
  before?: string;
}

function values(raw: unknown): string[] {
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).filter((value) => value !== '');
}

const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6})\d*)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Django's IsoDateTimeField: a date, or a date and time with optional seconds, fraction and offset. Times
 * without an offset are in the server's zone (UTC). Returns null for anything else or an impossible date.
 */
export function parseIsoDateTime(value: string): string | null {
  const match = ISO_DATETIME.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  const probe = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)));
  const consistent =
    probe.getUTCFullYear() === Number(year) &&
    probe.getUTCMonth() === Number(month) - 1 &&
    probe.getUTCDate() === Number(day) &&
    probe.getUTCHours() === Number(hour) &&
    probe.getUTCMinutes() === Number(minute) &&
    probe.getUTCSeconds() === Number(second);
  if (!consistent) return null;
  let offset = zone;
  if (zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const hours = Number(digits.slice(0, 2));
    const minutes = Number(digits.slice(2, 4) || '0');
    if (hours > 23 || minutes > 59) return null;
    offset = `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
  }
  return `${year}-${month}-${day}T${hour}:${minute}:${second}.${fraction.padEnd(6, '0')}${offset}`;
}

/** Reads the filters from the query string; invalid values are 400 with django-filter's messages. */
export function parseChangeFilters(query: Record<string, unknown>): ChangeFilters {
  const filters: ChangeFilters = {};
  const errors: Record<string, string[]> = {};
  const user = values(query.user);
  if (user.length > 0) filters.username = user[user.length - 1];
  const actions = values(query.action);
  if (actions.length > 0) {
    const invalid = actions.find((value) => !/^\d+$/.test(value) || !isKnownAction(Number(value)));
    if (invalid !== undefined) errors.action = [`Select a valid choice. ${invalid} is not one of the available choices.`];
    else filters.actions = [...new Set(actions.map(Number))];
  }
  for (const [param, key] of [
    ['timestamp_after', 'after'],
    ['timestamp_before', 'before'],
  ] as const) {
    const raw = values(query[param]);
    if (raw.length === 0) continue;
    const parsed = parseIsoDateTime(raw[raw.length - 1]);
    if (parsed === null) errors.timestamp = ['Enter a valid date/time.'];
    else filters[key] = parsed;
  }
  if (Object.keys(errors).length > 0) throw new ApiValidationError(errors);
  return filters;
}
