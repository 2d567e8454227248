import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';

// Named (server-side prepared) statements for the SQL that runs on every request (docs/performance.md):
// PostgreSQL spent 0.5–2 ms planning each join of the request path against 0.2 ms executing it, and
// TypeORM's query() cannot name a statement. A named statement is parsed once per connection, and after
// five executions PostgreSQL keeps a generic plan when it costs no more than the custom ones, so the
// per-request planning goes away.
//
// Only fixed SQL texts may be prepared (a statement lives as long as its connection): the name is derived
// from the text, and statements are declared once at module level, never built per request.
//
// The embedded database (PGlite behind pglite-socket) has one backend session for every connection, so a
// statement prepared by a connection that the pool later closed would still exist there and the next
// connection's Parse would fail with "already exists". Named statements are therefore switched on only for
// data sources marked by enableNamedStatements(), which the app does on PostgreSQL.

const namedStatementSources = new WeakSet<DataSource>();

/** Lets PreparedStatement send named statements on this data source's connections (PostgreSQL only). */
export function enableNamedStatements(dataSource: DataSource): void {
  namedStatementSources.add(dataSource);
}

/** node-postgres's pool behind a TypeORM data source (the undocumented but stable `driver.master`). */
function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as unknown as { master: Pool }).master;
}

export class PreparedStatement<Row extends QueryResultRow> {
  readonly name: string;

  constructor(readonly text: string) {
    this.name = `glossa_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  }

  /**
   * Runs the statement on a data source (any pooled connection) or on an entity manager (inside a
   * transaction: that transaction's connection). Rows come back as node-postgres parsed them.
   */
  async run(db: DataSource | EntityManager, params: readonly unknown[]): Promise<Row[]> {
    const manager = 'driver' in db ? undefined : db;
    const dataSource = manager ? manager.connection : (db as DataSource);
    const values = [...params];
    if (!namedStatementSources.has(dataSource)) return unnamed(dataSource, manager, this.text, values);
    const config = { name: this.name, text: this.text, values };
    const queryRunner = manager?.queryRunner;
    if (queryRunner !== undefined && !queryRunner.isReleased) {
      const client = (await queryRunner.connect()) as PoolClient;
      return (await client.query<Row>(config)).rows;
    }
    return (await poolOf(dataSource).query<Row>(config)).rows;
  }
}

/**
 * The statement without a name, through TypeORM. Its structured result, because plain query() answers an
 * UPDATE/DELETE … RETURNING with [rows, rowCount] instead of the rows.
 */
async function unnamed<Row>(dataSource: DataSource, manager: EntityManager | undefined, text: string, values: unknown[]): Promise<Row[]> {
  const transactional = manager?.queryRunner;
  if (transactional !== undefined && !transactional.isReleased) return (await transactional.query(text, values, true)).records as Row[];
  const queryRunner = dataSource.createQueryRunner();
  try {
    return (await queryRunner.query(text, values, true)).records as Row[];
  } finally {
    await queryRunner.release();
  }
}

/**
 * How many statements runNamed keeps prepared per connection. Each holds its parse tree and, once PostgreSQL
 * settles on it, a generic plan in the backend's memory (tens to hundreds of kB for a search statement), so
 * the number is kept small: the few search shapes a busy server repeats fit, the rest take turns.
 */
export const NAMED_STATEMENTS_PER_CONNECTION = 16;

/** The names runNamed prepared on each connection, least recently used first. */
const namedOnClient = new WeakMap<PoolClient, Map<string, true>>();

/** node-postgres's record of the named statements a connection has parsed (pg 8 `Connection.parsedStatements`). */
function parsedStatementsOf(client: PoolClient): Record<string, string | undefined> {
  return (client as unknown as { connection: { parsedStatements: Record<string, string | undefined> } }).connection.parsedStatements;
}

/**
 * A statement built per request (a search's count and page: units-read.service.ts) run as a named statement,
 * so a repeated shape is parsed once per connection and, when PostgreSQL finds its generic plan no costlier
 * than the custom ones, not planned again (docs/performance.md, "Indexed search, session 9"). Unlike
 * PreparedStatement, the texts are not known in advance, so each connection keeps at most
 * NAMED_STATEMENTS_PER_CONNECTION of them and DEALLOCATEs the least recently used one to make room.
 * Callers pass only texts whose custom plans gain nothing from the parameter values (no user text among
 * them): a generic plan must be as good. On data sources without named statements (the embedded database)
 * it is an ordinary query.
 */
export async function runNamed<Row extends QueryResultRow>(db: DataSource | EntityManager, text: string, params: readonly unknown[]): Promise<Row[]> {
  const manager = 'driver' in db ? undefined : db;
  const dataSource = manager ? manager.connection : (db as DataSource);
  const values = [...params];
  if (!namedStatementSources.has(dataSource)) return unnamed(dataSource, manager, text, values);
  const queryRunner = manager?.queryRunner;
  if (queryRunner !== undefined && !queryRunner.isReleased) return namedOn((await queryRunner.connect()) as PoolClient, text, values);
  const client = await poolOf(dataSource).connect();
  try {
    return await namedOn<Row>(client, text, values);
  } finally {
    client.release();
  }
}

async function namedOn<Row extends QueryResultRow>(client: PoolClient, text: string, values: unknown[]): Promise<Row[]> {
  const name = `glossa_n_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  let names = namedOnClient.get(client);
  if (names === undefined) namedOnClient.set(client, (names = new Map()));
  if (names.delete(name)) names.set(name, true);
  else {
    if (names.size >= NAMED_STATEMENTS_PER_CONNECTION) {
      const [oldest] = names.keys();
      names.delete(oldest);
      // Only a statement that was parsed exists on the server (a Parse that failed left nothing behind).
      const parsed = parsedStatementsOf(client);
      if (parsed[oldest] !== undefined) {
        await client.query(`DEALLOCATE ${oldest}`);
        delete parsed[oldest];
      }
    }
    names.set(name, true);
  }
  return (await client.query<Row>({ name, text, values })).rows;
}
