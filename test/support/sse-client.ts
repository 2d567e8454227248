import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ClientRequest } from 'node:http';
import { PATIENCE_MS } from './wait';

// A small Server-Sent Events client for the change stream tests: a real HTTP connection (node:http), the
// WHATWG HTML event-stream parser (lines end in CRLF, LF or CR; a blank line dispatches; `:` starts a comment;
// one space after the colon is dropped; `id` sets the last event id even for a block without data, which then
// dispatches nothing), and waits that end on something arriving (or the stream ending), with a deadline only
// for failing.

export interface SseEvent {
  /** The last event id when the event was dispatched. */
  id: string;
  event: string;
  data: string;
}

export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  /** The last event id (WHATWG "last event ID string"): what to send as Last-Event-ID when reconnecting. */
  lastEventId = '';
  ended = false;
  /** The whole body of a response that is not an event stream (an error as JSON). */
  body = '';
  private buffer = '';
  private pendingCarriageReturn = false;
  private eventType = '';
  private data: string[] = [];
  private idBuffer = '';
  private readonly watchers = new Set<() => void>();

  private constructor(
    private readonly request: ClientRequest,
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    response: IncomingMessage,
  ) {
    const isStream = (headers['content-type'] ?? '').startsWith('text/event-stream');
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      if (isStream) this.feed(chunk);
      else this.body += chunk;
      this.notify();
    });
    const end = (): void => {
      this.ended = true;
      this.notify();
    };
    response.on('end', end);
    response.on('close', end);
    response.on('error', end);
  }

  /** Opens `url` and resolves once the status and headers arrived. */
  static connect(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(url, { method, headers: { Accept: 'text/event-stream', ...headers } });
      request.on('response', (response) => resolve(new SseClient(request, response.statusCode ?? 0, response.headers, response)));
      request.on('error', reject);
      request.end();
    });
  }

  /** The body parsed as JSON (error answers). */
  async json(timeoutMs = PATIENCE_MS): Promise<unknown> {
    await this.waitUntil(() => this.ended, timeoutMs, 'the end of the response');
    return JSON.parse(this.body) as unknown;
  }

  /** The change ids of the `change` events received so far. */
  changeIds(): number[] {
    return this.events.filter((event) => event.event === 'change').map((event) => (JSON.parse(event.data) as { id: number }).id);
  }

  /** Waits until `condition` holds, re-checked whenever something arrives; fails at the deadline or when the stream ends first. */
  waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (condition()) finish();
        else if (this.ended) finish(new Error(`${what}: the stream ended first (events: ${this.changeIds().join(', ')})`));
      };
      const timer = setTimeout(() => finish(new Error(`${what}: not received within ${timeoutMs} ms (events: ${this.changeIds().join(', ')})`)), timeoutMs);
      const finish = (error?: Error): void => {
        clearTimeout(timer);
        this.watchers.delete(check);
        if (error) reject(error);
        else resolve();
      };
      this.watchers.add(check);
      check();
    });
  }

  /** Waits for the change event with this id. */
  waitForChange(id: number, timeoutMs = PATIENCE_MS): Promise<void> {
    return this.waitUntil(() => this.changeIds().includes(id), timeoutMs, `change ${id}`);
  }

  /** Waits until the server ends the stream. */
  waitForEnd(timeoutMs = PATIENCE_MS): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!this.ended) return;
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(new Error(`the stream did not end within ${timeoutMs} ms`));
      }, timeoutMs);
      this.watchers.add(check);
      check();
    });
  }

  /** Disconnects (as a browser's EventSource.close() does). */
  close(): void {
    this.request.destroy();
  }

  private notify(): void {
    for (const watcher of [...this.watchers]) watcher();
  }

  private feed(chunk: string): void {
    let text = chunk;
    // A CR at the end of the previous chunk may be the first half of a CRLF.
    if (this.pendingCarriageReturn && text.startsWith('\n')) text = text.slice(1);
    this.pendingCarriageReturn = text.endsWith('\r');
    this.buffer += text;
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) {
      this.comments.push(line.slice(1).trim());
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventType = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.idBuffer = value;
  }

  private dispatch(): void {
    this.lastEventId = this.idBuffer;
    const data = this.data;
    const type = this.eventType || 'message';
    this.data = [];
    this.eventType = '';
    if (data.length === 0) return;
    this.events.push({ id: this.lastEventId, event: type, data: data.join('\n') });
  }
}
