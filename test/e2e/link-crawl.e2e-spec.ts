import { authHeader } from '../support/contract';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

/** Every string value in a JSON document, wherever it is nested. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((item) => strings(item, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((item) => strings(item, out));
  return out;
}

/**
 * Issue 2 "Done means": every API link in every response (url, *_url, translation, component, unit, user,
 * source_unit, next/previous) resolves to 200. Starting at /api/ on the demo data, this follows every link
 * to this server breadth-first, as a client such as wlc would, and checks each answer.
 */
describe('every API link resolves', () => {
  let app: TestApp;
  let origin: string;
  beforeAll(async () => {
    app = await createTestApp({ DEMO: 'true' });
    origin = `http://127.0.0.1:${(app.glossa.app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await app.close();
  });

  it('crawls the API from /api/ and every link answers 200 with the format=api parameter', async () => {
    const seen = new Set<string>();
    const queue = [`${origin}/api/?format=api`];
    const failures: string[] = [];
    while (queue.length > 0 && seen.size < 2000) {
      const link = queue.shift()!;
      if (seen.has(link)) continue;
      seen.add(link);
      const path = link.slice(origin.length);
      const response = await app.http().get(path).set(...authHeader(TEST_ADMIN_TOKEN));
      if (response.status !== 200) {
        failures.push(`${response.status} ${path}`);
        continue;
      }
      if (!String(response.headers['content-type']).startsWith('application/json')) continue;
      for (const value of strings(response.body)) {
        if (!value.startsWith(`${origin}/api/`)) continue;
        expect(value).toMatch(/[?&]format=api(&|$)/);
        if (!seen.has(value)) queue.push(value);
      }
    }
    expect(failures).toEqual([]);
    expect(queue).toEqual([]); // the crawl ended because every link was visited, not at the cap
    // The crawl reached every kind of resource the spec links to.
    const reached = [...seen].map((link) => link.slice(origin.length));
    for (const pattern of [
      /^\/api\/languages\/en\/statistics\//,
      /^\/api\/projects\/demo\/languages\//,
      /^\/api\/components\/demo\/app\/lock\//,
      /^\/api\/components\/demo\/app\/links\//,
      /^\/api\/translations\/demo\/app\/cs\/file\//,
      /^\/api\/translations\/demo\/app\/cs\/repository\//,
      /^\/api\/units\/\d+\//,
      /^\/api\/changes\/\d+\//,
      /^\/api\/users\/admin\/notifications\//,
    ]) {
      expect(reached.some((path) => pattern.test(path))).toBe(true);
    }
  });
});
