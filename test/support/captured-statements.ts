import pg from 'pg';

// The SQL a request really sends, for tests that read its plan (search-plans, security-search, detail-read-plans):
// every statement goes through pg's Client#query, TypeORM's and the named statements' alike, on PostgreSQL and on
// the embedded database.

export interface CapturedStatement {
  text: string;
  values: unknown[];
}

/** Runs `during` and returns its result with the statements sent meanwhile whose text contains `marker`. */
export async function captureStatements<T>(marker: string, during: () => Promise<T>): Promise<{ result: T; statements: CapturedStatement[] }> {
  const statements: CapturedStatement[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | null)?.text;
    if (typeof text === 'string' && text.includes(marker)) statements.push({ text, values: Array.isArray(args[1]) ? args[1] : ((args[0] as { values?: unknown[] }).values ?? []) });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    return { result: await during(), statements };
  } finally {
    pg.Client.prototype.query = original;
  }
}

/** A node of `EXPLAIN (FORMAT JSON)`, with the fields the tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Parent Relationship'?: string;
  'Actual Loops'?: number;
  Filter?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

/** The plan's nodes, every level flattened (the root first). */
export const planNodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodesOf)];

/** The plan of a captured statement, run by `client` as `EXPLAIN (<options>, FORMAT JSON)` with its parameters. */
export async function planOf(client: pg.Client, statement: CapturedStatement, options = ''): Promise<PlanNode> {
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (${options ? `${options}, ` : ''}FORMAT JSON) ${statement.text}`, statement.values);
  return rows[0]['QUERY PLAN'][0].Plan;
}
