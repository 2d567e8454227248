import type { Response } from 'express';

// One open Server-Sent Events response of the change stream (change-stream.service.ts): the wire format
// (WHATWG HTML "Server-sent events": `id:`/`event:`/`data:` lines, a blank line ends an event, lines starting
// with `:` are comments), back-pressure, heartbeats and the end of the stream. What to send comes from the
// service through `deliver`, called whenever the feed may have moved.

/** One event: its feed position token (the `id:` a client resumes from) and the change's JSON. */
export interface StreamEvent {
  id: string;
  data: string;
}

export interface SessionTiming {
  heartbeatMs: number;
  /** A client that has not read what was sent for this long is disconnected (its buffer stays full). */
  stallMs: number;
}

/**
 * Fills the stream until nothing more is readable: answers false when the stream must end (the caller lost
 * its access). Called by the session with the position it has reached; it answers the events after it.
 */
export type Deliver = (session: ChangeStreamSession) => Promise<boolean>;

export class ChangeStreamSession {
  private closed = false;
  private wakePending = true;
  private wakeWaiter: (() => void) | undefined;
  private drainWaiter: (() => void) | undefined;
  private stalledSince: number | undefined;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly closeListeners: Array<() => void> = [];

  constructor(
    private readonly response: Response,
    /** The position reached so far, as a token (the last event's id, or where the stream started). */
    public position: string,
    timing: SessionTiming,
  ) {
    response.on('close', () => this.close());
    response.on('drain', () => {
      this.stalledSince = undefined;
      this.drainWaiter?.();
    });
    this.heartbeat = setInterval(() => this.beat(timing.stallMs), timing.heartbeatMs);
    this.heartbeat.unref();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends the status and headers, then the starting position as an `id:` without data. */
  start(): void {
    const response = this.response;
    response.status(200);
    response.setHeader('Content-Type', 'text/event-stream');
    // Neither caches nor proxies may hold events back (X-Accel-Buffering: nginx's response buffering).
    response.setHeader('Cache-Control', 'no-cache');
    response.setHeader('X-Accel-Buffering', 'no');
    // A block with an id and no data dispatches no event but sets the client's last event id (WHATWG
    // "dispatch the event", step 1): a client that disconnects before any change still resumes from here.
    this.send(`id: ${this.position}\n\n`);
  }

  /** Marks that new changes may be readable (a feed notification or poll). */
  wake(): void {
    this.wakePending = true;
    this.wakeWaiter?.();
  }

  /** Sends events in one write; waits while the client's buffer is full (back-pressure). */
  async sendEvents(events: StreamEvent[]): Promise<void> {
    if (events.length === 0 || this.closed) return;
    const chunk = events.map((event) => `id: ${event.id}\nevent: change\ndata: ${event.data}\n\n`).join('');
    this.position = events[events.length - 1].id;
    this.send(chunk);
    await this.drained();
  }

  /** Delivers until the stream is closed: each wake-up runs `deliver` once (wake-ups during it coalesce). */
  async run(deliver: Deliver): Promise<void> {
    while (!this.closed) {
      if (!this.wakePending) await new Promise<void>((resolve) => (this.wakeWaiter = resolve));
      this.wakeWaiter = undefined;
      if (this.closed) return;
      this.wakePending = false;
      if (!(await deliver(this))) {
        this.close();
        return;
      }
    }
  }

  /** Calls `listener` once when the stream ends, whoever ends it. */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** Ends the stream (server side) or cleans up after the client left; idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    if (!this.response.writableEnded) this.response.end();
    this.wakeWaiter?.();
    this.drainWaiter?.();
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  private send(text: string): void {
    if (this.closed) return;
    if (!this.response.write(text)) this.stalledSince ??= Date.now();
  }

  private async drained(): Promise<void> {
    while (!this.closed && this.response.writableNeedDrain) {
      await new Promise<void>((resolve) => (this.drainWaiter = resolve));
      this.drainWaiter = undefined;
    }
  }

  /** A comment line keeps idle proxies from closing the stream; a client that stopped reading is let go. */
  private beat(stallMs: number): void {
    if (this.closed) return;
    if (this.response.writableNeedDrain) {
      if (this.stalledSince !== undefined && Date.now() - this.stalledSince > stallMs) {
        this.response.destroy();
        this.close();
      }
      return;
    }
    this.send(': ping\n\n');
  }
}
