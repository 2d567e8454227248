// How long tests wait. A test waits on an event (a task finishing, a row appearing, a mail arriving), never
// on the clock (architecture.md "Tests"); the only durations here are safety nets for an event that never
// comes. They are deliberately far above what any wait needs on a quiet machine, so a loaded machine (the
// shared two cores running other suites, builds and benches: issue 15 item 5) makes a test slower, never red.

/**
 * Jest's per-test and per-hook limit (jest.config.cjs `testTimeout`, which cannot import this file: keep the
 * two equal). A test that needs more (several server starts in a row) passes its own, larger limit.
 */
export const TEST_TIMEOUT_MS = 300_000;

/**
 * How long a wait for one event keeps waiting before it fails. Below TEST_TIMEOUT_MS so that a wait which
 * never ends fails with what it last saw (the task's body, the mails so far) rather than Jest's bare
 * "Exceeded timeout", and above anything a loaded machine needs.
 */
export const PATIENCE_MS = 240_000;

/** How often a poll asks again: often enough not to add latency, rarely enough not to load the server. */
export const POLL_INTERVAL_MS = 100;

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Asks `probe` until it answers something other than undefined, and answers that. A probe that throws counts
 * as "not yet" (a server still starting), and its last error goes into the failure, as does `lastSeen()`
 * when given: a failure says where things stood, not only that time ran out.
 */
export async function pollUntil<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  options: { timeoutMs?: number; lastSeen?: () => unknown } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? PATIENCE_MS;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    const value = await probe().catch((error: unknown) => {
      lastError = error;
      return undefined;
    });
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const seen = options.lastSeen ? ` Last seen: ${JSON.stringify(options.lastSeen())}.` : '';
      const error = lastError === undefined ? '' : ` Last error: ${lastError instanceof Error ? lastError.message : String(lastError)}.`;
      throw new Error(`${what}: not reached within ${timeoutMs} ms.${seen}${error}`);
    }
    await pause(POLL_INTERVAL_MS);
  }
}
