import { Client } from 'pg';

/**
 * Which PostgreSQL server the tests use: TEST_DATABASE_URL, else DATABASE_URL, else none (the embedded
 * database, started by the global setup). DEVELOPERS.md "The two commands".
 */
export function serverUrlFromEnv(): string | undefined {
  return process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim() || undefined;
}

/** The same server URL with another database name. */
export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;
