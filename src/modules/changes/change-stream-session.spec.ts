import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { ChangeStreamSession } from './change-stream-session';

/** A response whose socket buffer is full while `full` is set: write() answers false until 'drain'. */
class FakeResponse extends EventEmitter {
  readonly written: string[] = [];
  readonly headers = new Map<string, string>();
  statusCode = 0;
  full = false;
  writableEnded = false;
  destroyed = false;

  get writableNeedDrain(): boolean {
    return this.full;
  }

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  setHeader(name: string, value: string): void {
    this.headers.set(name, value);
  }

  write(text: string): boolean {
    this.written.push(text);
    this.emit('written', text);
    return !this.full;
  }

  end(): void {
    this.writableEnded = true;
  }

  destroy(): void {
    this.destroyed = true;
    this.emit('destroyed');
  }

  drain(): void {
    this.full = false;
    this.emit('drain');
  }
}

/** Lets pending promise callbacks run (no clock involved). */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Resolves on the next `event` of `emitter` that satisfies `accept`. */
function next(emitter: EventEmitter, event: string, accept: (value: unknown) => boolean = () => true): Promise<void> {
  return new Promise((resolve) => {
    const listener = (value: unknown): void => {
      if (!accept(value)) return;
      emitter.off(event, listener);
      resolve();
    };
    emitter.on(event, listener);
  });
}

describe('ChangeStreamSession', () => {
  let response: FakeResponse;
  let session: ChangeStreamSession;

  const open = (timing = { heartbeatMs: 60_000, stallMs: 60_000 }): void => {
    response = new FakeResponse();
    session = new ChangeStreamSession(response as unknown as Response, '5.7', timing);
  };

  afterEach(() => session.close());

  it('starts with the event-stream headers and the starting position as an id without data', () => {
    open();
    session.start();
    expect(response.statusCode).toBe(200);
    expect(Object.fromEntries(response.headers)).toEqual({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    expect(response.written).toEqual(['id: 5.7\n\n']);
  });

  it('writes a batch as change events in one write and moves its position to the last', async () => {
    open();
    await session.sendEvents([
      { id: '5.8', data: '{"id":8}' },
      { id: '6.9', data: '{"id":9}' },
    ]);
    expect(response.written).toEqual(['id: 5.8\nevent: change\ndata: {"id":8}\n\nid: 6.9\nevent: change\ndata: {"id":9}\n\n']);
    expect(session.position).toBe('6.9');
  });

  it('waits for drain while the client buffer is full (back-pressure), and delivers nothing meanwhile', async () => {
    open();
    response.full = true;
    let delivered = 0;
    const running = session.run(async (current) => {
      delivered += 1;
      await current.sendEvents([{ id: `1.${delivered}`, data: '{}' }]);
      return true;
    });
    await settle();
    expect(delivered).toBe(1);
    session.wake();
    await settle();
    // Still waiting for the socket: the wake-up is kept, not acted on.
    expect(delivered).toBe(1);
    response.drain();
    await settle();
    expect(delivered).toBe(2);
    session.close();
    await running;
  });

  it('sends heartbeat comments, none while the buffer is full, and lets a client go that stopped reading', async () => {
    open({ heartbeatMs: 5, stallMs: 20 });
    await next(response, 'written', (text) => text === ': ping\n\n');
    response.full = true;
    const sending = session.sendEvents([{ id: '1.1', data: '{}' }]);
    const sentAt = response.written.length;
    await next(response, 'destroyed');
    expect(response.written.slice(sentAt)).toEqual([]);
    expect(session.isClosed).toBe(true);
    // Closing releases the write that waited for the socket.
    await sending;
  });

  it('closes once when the client leaves, ends the response and tells its listeners', () => {
    open();
    let closed = 0;
    session.onClose(() => (closed += 1));
    response.emit('close');
    session.close();
    expect(closed).toBe(1);
    expect(response.writableEnded).toBe(true);
    let late = 0;
    session.onClose(() => (late += 1));
    expect(late).toBe(1);
  });
});
