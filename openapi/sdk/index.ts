/**
 * Glossa's TypeScript SDK: `schema.d.ts` is generated from `../openapi.json` by openapi-typescript
 * (`npm run sdk:generate`; CI fails when it is stale), and openapi-fetch is the typed fetch client over it.
 *
 *   const glossa = createGlossaClient({ baseUrl: 'http://localhost:8000', token: process.env.GLOSSA_TOKEN });
 *   const { data, error } = await glossa.GET('/api/projects/{project}/', { params: { path: { project: 'demo' } } });
 *
 * Every call returns `{ data, error, response }`: `data` is the typed 2xx body, `error` the typed error body
 * (`{detail}` or a validation error object).
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

export interface GlossaClientOptions extends ClientOptions {
  /** Server root, e.g. `http://localhost:8000` (the paths already start with `/api/`). */
  baseUrl: string;
  /** API token; sent as `Authorization: Token <key>`, which every write needs. */
  token?: string;
}

export type GlossaClient = Client<paths>;

export function createGlossaClient({ token, ...options }: GlossaClientOptions): GlossaClient {
  const client = createClient<paths>(options);
  if (token) {
    client.use({
      onRequest({ request }) {
        if (!request.headers.has('Authorization')) request.headers.set('Authorization', `Token ${token}`);
        return request;
      },
    });
  }
  return client;
}
