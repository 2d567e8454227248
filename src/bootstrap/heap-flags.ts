/**
 * V8's heap limits, and the size of its worker pool, for the database the server runs on. V8 fixes them when
 * the process starts, so they are Node.js flags: `npm start` (src/start.ts) and the container image
 * (scripts/container-entrypoint.sh) pick them from `DATABASE_URL` before the server's process starts.
 *
 * The embedded database (PGlite) runs in the server's process, and a laptop demo should fit in 300 MB
 * resident (issue 15 item 3): a 4 MB semi-space and a 256 MB old generation keep the server under that after
 * start, under 400 MB serving the bench's units page and under 512 MB importing 300,000 units (README "Memory",
 * docs/performance.md "Memory of the embedded default"); 16 MB semi-spaces broke all three.
 *
 * On PostgreSQL the process holds no database, and a small young generation costs every read CPU: with 50
 * requests in flight a 4 MB semi-space fills every 70 requests or so, and each scavenge finds the state of the
 * requests still waiting on PostgreSQL alive and promotes it. 16 MB (V8's own default on a 64-bit machine)
 * measured 17–23 % less Node CPU per detail read (docs/performance.md "Young generation on PostgreSQL,
 * session 14", "Young generation by database, session 16"). The old generation keeps its 256 MB limit; on
 * PostgreSQL it grows as a large heap's would (heap-growth.ts).
 *
 * On the embedded database V8's worker pool has one thread (`--v8-pool-size=1`, Node's default is 4). PGlite is a
 * WebAssembly module whose functions V8 compiles, and tiers up, on those threads; each thread's compiler scratch
 * memory stayed in its own C allocator arena after the compile, 25–40 MB per thread, and how many threads had
 * compiled decided most of a start's resident size (257–312 MB on one build). With one thread a later start
 * measured 226–246 MB, the import's peak 402 against 466 MB and the units page's 307 against 381 MB, at the same
 * speed (docs/performance.md "Memory, session 19"). On PostgreSQL the pool keeps Node's default size: the
 * server's process holds no WebAssembly, and its garbage collector uses the threads.
 */
export const EMBEDDED_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--max-old-space-size=256', '--v8-pool-size=1'];
export const POSTGRES_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=16', '--max-old-space-size=256'];

/** The heap limits for a server started with `env`: PostgreSQL's when `DATABASE_URL` is set (as app-config.ts reads it). */
export function heapFlagsFor(env: NodeJS.ProcessEnv): readonly string[] {
  return env.DATABASE_URL?.trim() ? POSTGRES_HEAP_FLAGS : EMBEDDED_HEAP_FLAGS;
}

/**
 * A heap-limit flag in any of the spellings V8 takes (dashes or underscores, `=N` or a separate `N`), or the
 * worker pool's size (Node's option, dashes only).
 */
const HEAP_LIMIT_FLAG = /^(?:--max[-_](?:semi|old)[-_]space[-_]size|--v8-pool-size)(=|$)/;

/**
 * `flags` (a Node.js command line's options) with their heap limits replaced by `heap`: every other flag kept
 * in its order, the limits appended. A limit given as two words (`--max-old-space-size 512`) loses its value too.
 */
export function withHeapFlags(flags: readonly string[], heap: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < flags.length; i += 1) {
    const match = HEAP_LIMIT_FLAG.exec(flags[i]);
    if (match === null) kept.push(flags[i]);
    else if (match[1] === '' && i + 1 < flags.length && /^\d+$/.test(flags[i + 1])) i += 1;
  }
  return [...kept, ...heap];
}
