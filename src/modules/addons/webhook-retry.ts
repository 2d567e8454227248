// When a failed webhook delivery is tried again (Standard Webhooks operations, integration.md §2.4; Weblate's
// add-on has no retry at all): after the n-th failed attempt, wait the n-th entry of WEBHOOK_RETRY_DELAYS
// (by default the spec's example schedule, 5 s to 24 h, roughly exponential), spread by ±20 % jitter so
// deliveries that failed together do not all come back at once; a Retry-After answer is honoured when it
// asks for longer (up to a day). Past the last entry the delivery is given up.

/** Longest Retry-After honoured: a receiver cannot park a delivery for longer. */
const MAX_RETRY_AFTER_MS = 86_400_000;
const JITTER = 0.2;

/**
 * Milliseconds to wait before the next attempt, or null when `attemptsMade` used up the schedule.
 * `retryAfter` is the header as received (seconds, or an HTTP date).
 */
export function retryDelayMs(
  attemptsMade: number,
  delaysSeconds: readonly number[],
  retryAfter: string | undefined,
  now: number = Date.now(),
  random: () => number = Math.random,
): number | null {
  if (attemptsMade < 1 || attemptsMade > delaysSeconds.length) return null;
  const scheduled = delaysSeconds[attemptsMade - 1] * 1000 * (1 - JITTER + 2 * JITTER * random());
  const asked = retryAfterMs(retryAfter, now);
  return Math.round(Math.max(scheduled, asked === null ? 0 : Math.min(asked, MAX_RETRY_AFTER_MS)));
}

/** Retry-After as milliseconds from `now` (RFC 9110 §10.2.3: delay-seconds or an HTTP-date); null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
