/**
 * Progress of a long scan: a percentage (0–100) and log lines produced since the last call. Callers invoke
 * it only between transactions, so the listener may write to the database on its own connection (on PGlite
 * a query from another connection would wait for an open transaction to end: stack-evaluation.md §5).
 */
export type SyncProgressListener = (percent: number, logLines: string[]) => Promise<void>;

export const ignoreProgress: SyncProgressListener = async () => undefined;
