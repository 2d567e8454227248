import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { createInterface } from 'node:readline';

/** The floor process (floor-server.ts) on the database Glossa uses; resolves with its URL once it listens. */
export async function startFloor(databaseUrl: string, poolSize: number): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(__dirname, 'floor-server.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: String(poolSize) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`floor server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return {
    url: `http://127.0.0.1:${port.trim()}`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Keys of a JSON body and of its first list item (`results[0]`), to check that the floor answers the same shape. */
function keysOf(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const record = body as Record<string, unknown>;
  const item = Array.isArray(record.results) ? (record.results[0] as Record<string, unknown> | undefined) : undefined;
  const nested = Object.entries(record)
    .filter(([, value]) => value !== null && typeof value === 'object' && !Array.isArray(value))
    .flatMap(([key, value]) => Object.keys(value as object).map((inner) => `${key}.${inner}`));
  return [...Object.keys(record), ...nested, ...(item ? Object.keys(item).map((key) => `results[].${key}`) : [])];
}

/** The keys one body has and the other lacks (both directions), or an empty list when the key sets agree. */
export function shapeDifference(glossa: Buffer, floor: Buffer): string[] {
  const g = new Set(keysOf(JSON.parse(glossa.toString('utf8'))));
  const f = new Set(keysOf(JSON.parse(floor.toString('utf8'))));
  return [...[...g].filter((key) => !f.has(key)).map((key) => `floor lacks ${key}`), ...[...f].filter((key) => !g.has(key)).map((key) => `floor adds ${key}`)];
}
