import { Global, Injectable, Module } from '@nestjs/common';

/**
 * Responses that stay open until the client leaves (Server-Sent Events: /api/changes/stream/). The graceful
 * shutdown (create-app.ts) waits for in-flight requests to finish; a stream never finishes by itself, so it is
 * ended first, or every SIGTERM with a stream open would wait the whole SHUTDOWN_TIMEOUT_SECONDS.
 */
@Injectable()
export class OpenStreams {
  private readonly closers = new Set<() => void>();
  private closing = false;

  /** Whether shutdown has begun: a stream opened now is refused instead of being cut at once. */
  get isClosing(): boolean {
    return this.closing;
  }

  get size(): number {
    return this.closers.size;
  }

  /** Registers a stream's `close` (ends the response); answers the function that forgets it. */
  add(close: () => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  /** Ends every open stream; called before the HTTP server waits for in-flight requests. */
  closeAll(): void {
    this.closing = true;
    for (const close of [...this.closers]) {
      this.closers.delete(close);
      close();
    }
  }
}

/** Makes one OpenStreams per application injectable everywhere (the shutdown reads it from the app). */
@Global()
@Module({ providers: [OpenStreams], exports: [OpenStreams] })
export class OpenStreamsModule {}
