import { quoteIdent, withClient } from '../support/database-server';
import { globalState } from './global-state';

export default async function globalTeardown(): Promise<void> {
  await globalState.closeEmbedded?.();
  const serverUrl = process.env.GLOSSA_TEST_SERVER_URL;
  const template = process.env.GLOSSA_TEST_TEMPLATE_DB;
  if (serverUrl && template) {
    await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(template)} WITH (FORCE)`));
  }
}
