/**
 * Settings of every session of the application's pool, as startup options: timestamps in UTC, and no JIT.
 *
 * PostgreSQL's JIT compiles a statement whose estimated cost passes `jit_above_cost`, which a join over tables
 * without statistics (a new database, before autovacuum analyzed it) does at once: the teams list's nine-table
 * read of five teams cost 3 ms to plan, under 1 ms to run and 870 ms to compile (docs/performance.md "JIT, session
 * 23"). The application's statements are short reads and writes that compiling never pays for. The embedded
 * database has no JIT provider, so there the setting changes nothing.
 */
export const SESSION_SETTINGS = ['-c TimeZone=UTC', '-c jit=off'];
