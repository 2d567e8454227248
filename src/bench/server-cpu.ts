import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import type { GlossaProcess } from './glossa-process';

// CPU time of Glossa's process and of the PostgreSQL backends of its pool, read from /proc: on a machine shared
// with other work, wall-clock time mostly measures that other work, CPU time what a request costs (contention
// still inflates it somewhat). Used by the indexed-search and bulk scenarios.

const TICKS_PER_SECOND = 100; // USER_HZ of /proc/<pid>/stat on Linux

/** User + system CPU milliseconds of the processes, or null when one cannot be read. */
export function cpuMs(pids: readonly number[]): number | null {
  let total = 0;
  for (const pid of pids) {
    try {
      // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    } catch {
      return null;
    }
  }
  return total;
}

/** Glossa's process and the PostgreSQL backends connected to its database (its pool), when local. */
export async function serverPids(glossa: GlossaProcess, databaseUrl: string | null): Promise<number[] | null> {
  if (!databaseUrl) return null;
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
    );
    return [glossa.pid, ...rows.map((row) => row.pid)];
  } finally {
    await client.end();
  }
}

/** Glossa's CPU and its database backends' CPU at one moment; `since` gives what was spent in between. */
export interface CpuSnapshot {
  glossaMs: number | null;
  backends: Map<number, number | null> | null;
}

export async function cpuSnapshot(glossa: GlossaProcess, databaseUrl: string | null): Promise<CpuSnapshot> {
  const pids = await serverPids(glossa, databaseUrl);
  return {
    glossaMs: cpuMs([glossa.pid]),
    backends: pids === null ? null : new Map(pids.filter((pid) => pid !== glossa.pid).map((pid) => [pid, cpuMs([pid])])),
  };
}

/**
 * CPU milliseconds spent between two snapshots. A backend that connected in between counts from its start;
 * one that disconnected before `after` is not counted (the pool keeps its connections while a scenario runs).
 */
export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot): { glossaMs: number | null; databaseMs: number | null } {
  const glossaMs = before.glossaMs !== null && after.glossaMs !== null ? after.glossaMs - before.glossaMs : null;
  if (before.backends === null || after.backends === null) return { glossaMs, databaseMs: null };
  let databaseMs: number | null = 0;
  for (const [pid, spent] of after.backends) {
    const start = before.backends.get(pid) ?? 0;
    if (spent === null || start === null || databaseMs === null) databaseMs = null;
    else databaseMs += spent - start;
  }
  return { glossaMs, databaseMs };
}
