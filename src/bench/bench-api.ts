// The few API calls the benchmark makes outside the load runs: creating the project and components through
// the public API (the import is measured as a client sees it) and reading back what it needs.

export class BenchApi {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  get authorization(): string {
    return `Token ${this.token}`;
  }

  async request(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown; headers: Headers; bytes: Buffer }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { Authorization: this.authorization, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON: keep the text for the error message
    }
    return { status: response.status, body: parsed, headers: response.headers, bytes };
  }

  async json<T>(method: string, path: string, body?: unknown, expected = [200, 201]): Promise<T> {
    const response = await this.request(method, path, body);
    if (!expected.includes(response.status)) {
      throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 500)}`);
    }
    return response.body as T;
  }

  /** Polls a task until it completes; throws with its result when it failed. */
  async waitForTask(taskUrl: string, timeoutSeconds: number): Promise<void> {
    const path = new URL(taskUrl).pathname;
    const deadline = Date.now() + timeoutSeconds * 1000;
    for (;;) {
      const task = await this.json<{ completed: boolean; progress: number; result: unknown; log: string }>('GET', path);
      if (task.completed) {
        // A finished task shows progress 100 only when it succeeded (task.response.ts).
        if (task.progress !== 100) throw new Error(`Import task failed: ${JSON.stringify(task.result)}\n${task.log}`);
        return;
      }
      if (Date.now() > deadline) throw new Error(`Import task did not finish within ${timeoutSeconds} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Creates a component from a local repository and waits for its import task. */
  async importComponent(
    project: string,
    slug: string,
    repo: { path: string; filemask: string; template: string; newBase?: string; fileFormat?: string },
    timeoutSeconds: number,
  ): Promise<void> {
    const component = await this.json<{ task_url: string | null }>('POST', `/api/projects/${project}/components/`, {
      name: slug,
      slug,
      repo: repo.path,
      filemask: repo.filemask,
      template: repo.template,
      ...(repo.newBase ? { new_base: repo.newBase } : {}),
      file_format: repo.fileFormat ?? 'json-nested',
      source_language: { code: 'en' },
    });
    if (component.task_url === null) throw new Error('Component creation returned no task_url');
    await this.waitForTask(component.task_url, timeoutSeconds);
  }

  async count(path: string): Promise<number> {
    return (await this.json<{ count: number }>('GET', path)).count;
  }
}
