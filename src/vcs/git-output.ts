import { GitCommandError } from './git-runner';

// Small helpers for reading git's answers and vetting what we pass to it.

/** Revisions come from callers (stored revisions, API input); they must not look like options. */
export function assertRevision(revision: string): void {
  if (revision === '' || revision.startsWith('-') || /[\s\u0000-\u001f\u007f]/.test(revision)) {
    throw new Error(`"${revision}" is not a valid revision.`);
  }
}

export function splitNul(output: string): string[] {
  return output.split('\0').filter((entry) => entry !== '');
}

/** A rejection handler that turns git's exit code `code` (an expected answer, not a failure) into `value`. */
export function ignoreExitCode<T = undefined>(code: number, value?: T): (error: unknown) => T {
  return (error: unknown) => {
    if (error instanceof GitCommandError && error.exitCode === code) return value as T;
    throw error;
  };
}
