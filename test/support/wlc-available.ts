import { execFileSync } from 'node:child_process';

/**
 * Whether Weblate's `wlc` client can be run here. The wlc suites need it (Debian package `wlc`); CI installs
 * it and must run them, so under CI a missing wlc is an error, while a developer machine that has only
 * Node.js skips those suites (README "Quick start": `npm test` needs nothing else) and says why.
 */
export function wlcAvailable(): boolean {
  try {
    execFileSync('wlc', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.CI) throw new Error('wlc is not installed, and CI must run the wlc suites (.ci/run installs it with apt-get)');
    console.warn('Skipping the wlc suites: wlc is not installed (apt-get install wlc)');
    return false;
  }
}

/** `describe`, or `describe.skip` when wlc is not available outside CI. */
export const describeWithWlc: typeof describe = wlcAvailable() ? describe : describe.skip;
