import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';

// autocannon (maintained by the Node.js/Fastify people, pure JS) drives the load: keep-alive connections,
// HDR histograms for latency percentiles. It ships no type declarations, hence the small interface here.

interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}

interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: AutocannonRequest[];
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  duration: number;
}

const autocannon = createRequire(__filename)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

export interface RequestSpec {
  method: 'GET' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  /** A fixed body, or one built per request (so every PATCH really changes something). */
  body?: string | (() => string);
  /** Path per request (overrides `path`). */
  nextPath?: () => string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  ok: number;
  failed: number;
}

export async function runLoad(baseUrl: string, spec: RequestSpec, connections: number, seconds: number): Promise<LoadResult> {
  const target = new URL(baseUrl);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('The benchmark only targets loopback.');
  const headers = { ...(spec.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...spec.headers };
  const dynamic = typeof spec.body === 'function' || spec.nextPath !== undefined;
  const result = await autocannon({
    url: `${baseUrl}${spec.path}`,
    connections,
    duration: seconds,
    method: spec.method,
    headers,
    body: typeof spec.body === 'string' ? spec.body : undefined,
    requests: dynamic
      ? [
          {
            method: spec.method,
            headers,
            setupRequest: (request) => ({
              ...request,
              path: spec.nextPath ? spec.nextPath() : spec.path,
              body: typeof spec.body === 'function' ? spec.body() : spec.body,
            }),
          },
        ]
      : undefined,
  });
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    ok: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers that belong to the connection or the moment, not to the response being replayed. */
const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export function recordHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!HOP_HEADERS.has(name)) kept[name] = value;
  });
  return kept;
}

/** Starts baseline-server.js in its own process with the given response; resolves with its URL. */
export async function startBaseline(response: RecordedResponse): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'glossa-baseline-'));
  const file = path.join(dir, 'response.json');
  await writeFile(file, JSON.stringify({ status: response.status, headers: response.headers, body: response.body.toString('base64') }));
  const child = spawn(process.execPath, [path.join(__dirname, 'baseline-server.js'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`baseline server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return {
    url: `http://127.0.0.1:${port.trim()}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
