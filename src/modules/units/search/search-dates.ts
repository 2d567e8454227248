// Date values of the search language (checks-suggestions-search.md §7.3), all in UTC. A value names either a
// period (a year, a month, a day: `2019`, `2019-03`, `2019-03-01`, `March 1, 2019`, `yesterday`, `2 weeks ago`)
// or an instant (`2019-03-01T10:00`, `now`). Relative phrases count from today's midnight as [latest] does
// ("1 day ago" = yesterday 00:00) and a date-only result covers its whole day. `_` may stand for spaces
// (`20_days_ago`, usable inside ranges).

import { SearchQueryError } from './search-parser';

export interface SearchPeriod {
  start: Date;
  /** Exclusive end; equal to start + 1 ms for an instant. */
  end: Date;
  instant: boolean;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const UNITS: Readonly<Record<string, 'day' | 'week' | 'month' | 'year' | 'hour' | 'minute'>> = {
  minute: 'minute',
  minutes: 'minute',
  hour: 'hour',
  hours: 'hour',
  day: 'day',
  days: 'day',
  week: 'week',
  weeks: 'week',
  month: 'month',
  months: 'month',
  year: 'year',
  years: 'year',
};

const utc = (year: number, month = 0, day = 1, hour = 0, minute = 0, second = 0): Date => new Date(Date.UTC(year, month, day, hour, minute, second));

function valid(year: number, month: number, day: number): boolean {
  const date = utc(year, month, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month && date.getUTCDate() === day;
}

const day = (start: Date): SearchPeriod => ({ start, end: utc(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + 1), instant: false });

function shift(from: Date, amount: number, unit: string): Date {
  const [y, m, d, h, min] = [from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate(), from.getUTCHours(), from.getUTCMinutes()];
  switch (unit) {
    case 'minute':
      return utc(y, m, d, h, min - amount);
    case 'hour':
      return utc(y, m, d, h - amount, min);
    case 'day':
      return utc(y, m, d - amount);
    case 'week':
      return utc(y, m, d - 7 * amount);
    case 'month':
      return utc(y, m - amount, d);
    default:
      return utc(y - amount, m, d);
  }
}

/** The period named by `value` at time `now`; SearchQueryError "Could not parse timestamp: X" otherwise. */
export function parseSearchDate(value: string, now: Date): SearchPeriod {
  const text = value.trim().replace(/_/g, ' ').replace(/\s+/g, ' ').toLowerCase();
  const midnight = utc(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let match: RegExpExecArray | null;
  if (text === 'now') return { start: now, end: new Date(now.getTime() + 1), instant: true };
  if (text === 'today') return day(midnight);
  if (text === 'yesterday') return day(shift(midnight, 1, 'day'));
  if ((match = /^(\d{1,4}|a|an|one) (minute|minutes|hour|hours|day|days|week|weeks|month|months|year|years) ago$/.exec(text))) {
    const amount = /^\d+$/.test(match[1]) ? Number(match[1]) : 1;
    const unit = UNITS[match[2]];
    if (unit === 'minute' || unit === 'hour') {
      const start = shift(now, amount, unit);
      return { start, end: new Date(start.getTime() + 1), instant: true };
    }
    return day(shift(midnight, amount, unit));
  }
  if ((match = /^last (week|month|year)$/.exec(text))) return day(shift(midnight, 1, match[1]));
  if ((match = /^(\d{4})$/.exec(text))) return { start: utc(Number(match[1])), end: utc(Number(match[1]) + 1), instant: false };
  if ((match = /^(\d{4})-(\d{2})$/.exec(text))) {
    const [year, month] = [Number(match[1]), Number(match[2]) - 1];
    if (month > 11) throw new SearchQueryError(`Could not parse timestamp: ${value}`);
    return { start: utc(year, month), end: utc(year, month + 1), instant: false };
  }
  if ((match = /^(\d{4})-(\d{2})-(\d{2})(?:[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(z|[+-]\d{2}:?\d{2})?)?$/.exec(text))) {
    const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
    if (!valid(year, month, date)) throw new SearchQueryError(`Could not parse timestamp: ${value}`);
    if (match[4] === undefined) return day(utc(year, month, date));
    const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
    if (hour > 23 || minute > 59 || second > 59) throw new SearchQueryError(`Could not parse timestamp: ${value}`);
    let start = utc(year, month, date, hour, minute, second);
    const zone = match[7];
    if (zone && zone !== 'z') {
      const sign = zone[0] === '-' ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      start = new Date(start.getTime() - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000);
    }
    return { start, end: new Date(start.getTime() + 1), instant: true };
  }
  // Free forms of the general date parser: "March 1, 2019", "1 March 2019", "Mar 1 2019".
  const monthOf = (name: string): number => MONTHS.findIndex((month) => month === name || (name.length >= 3 && month.startsWith(name)));
  if ((match = /^([a-z]+)\.? (\d{1,2}),? (\d{4})$/.exec(text)) || (match = /^(\d{1,2}) ([a-z]+)\.?,? (\d{4})$/.exec(text))) {
    const [name, date] = /^\d/.test(match[1]) ? [match[2], Number(match[1])] : [match[1], Number(match[2])];
    const month = monthOf(name);
    const year = Number(match[3]);
    if (month >= 0 && valid(year, month, date)) return day(utc(year, month, date));
  }
  throw new SearchQueryError(`Could not parse timestamp: ${value}`);
}
