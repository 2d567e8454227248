import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * The connection interface pg-boss accepts instead of opening its own pool (pg-boss 10 `db` option,
 * also accepted per call by `send(..., { db })`). pg-boss reads pg's native result shape (`rows`, and an
 * array of results for its multi-statement scripts), so the adapters hand out the pg client's own answer.
 */
export interface PgBossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

interface PgClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

async function runOn(runner: QueryRunner, text: string, values: unknown[] | undefined): Promise<{ rows: unknown[] }> {
  // `connect()` returns the pg client the runner holds; querying it directly keeps pg's result shape.
  const client = (await runner.connect()) as PgClient;
  // No values means pg's simple protocol, which pg-boss needs for its BEGIN …; COMMIT scripts.
  return client.query(text, values !== undefined && values.length > 0 ? values : undefined);
}

/**
 * pg-boss through the application's TypeORM pool rather than a pool of its own. The embedded PGlite
 * server accepts only pool size + 1 connections and has one session (stack-evaluation.md §5), so a
 * second pool would be refused; on PostgreSQL it simply shares the configured pool.
 */
export function dataSourceDb(dataSource: DataSource): PgBossDb {
  return {
    async executeSql(text, values) {
      const runner = dataSource.createQueryRunner('master');
      try {
        return await runOn(runner, text, values);
      } catch (error) {
        // pg-boss sends some scripts as one `BEGIN; …; COMMIT;` string. When a statement in it fails (e.g. a
        // deadlock victim while two replicas create their queues at once), the rest of the string is skipped
        // and the connection stays inside the aborted transaction: back in the pool, it would fail every
        // later query with 25P02. Rolling back here is a no-op (a warning) when no transaction is open.
        await runner.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        await runner.release();
      }
    },
  };
}

/**
 * pg-boss on the connection of an open transaction, so a job is inserted atomically with the rows that
 * describe it. Required inside transactions: on PGlite (and with a pool of one) a query on another
 * connection waits for the transaction to end, which would never happen (stack-evaluation.md §5, §8).
 */
export function transactionDb(manager: EntityManager): PgBossDb {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('transactionDb needs the EntityManager of a transaction (manager.queryRunner is unset).');
  return { executeSql: (text, values) => runOn(runner, text, values) };
}
