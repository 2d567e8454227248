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
