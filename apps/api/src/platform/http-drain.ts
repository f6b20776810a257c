import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server, ServerResponse } from 'node:http';
import { APP_CONFIG, AppConfig, ProcessLifecycle } from '@pos/platform';

/**
 * Graceful HTTP drain on shutdown (SIGTERM -> app.close()), before anything else closes:
 *  1. the process is marked draining (health/readiness answer 503 so the load balancer stops
 *     sending), the server stops accepting connections and closes the idle keep-alive ones;
 *  2. every response from then on, and every one still being prepared, carries
 *     `Connection: close`, so a keep-alive client's connection ends after its answer;
 *  3. requests in flight finish (bounded by SHUTDOWN_TIMEOUT_MS minus a margin for the rest of
 *     the shutdown); only then do the queues and the database close.
 */
@Injectable()
export class HttpDrain implements BeforeApplicationShutdown {
  private readonly inFlight = new Set<ServerResponse>();
  private idle?: () => void;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly lifecycle: ProcessLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get server(): Server | undefined {
    return this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
  }

  /** A request has arrived (the edge middleware, first on every request). */
  track(res: ServerResponse): void {
    if (this.lifecycle.draining) res.setHeader('Connection', 'close');
    this.inFlight.add(res);
  }

  /** Its response is over (sent or aborted). */
  untrack(res: ServerResponse): void {
    this.inFlight.delete(res);
    if (this.inFlight.size === 0) this.idle?.();
  }

  /** Requests being served right now (the in-flight gauge, tests and logs). */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.lifecycle.beginDrain('shutdown: finishing requests in flight');
    const server = this.server;
    if (!server) return;
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    if (server.listening) server.close(); // stop accepting; the final close callback is Nest's
    server.closeIdleConnections();
    if (this.inFlight.size === 0) return;
    const budgetMs = Math.max(0, this.config.shutdownTimeoutMs - 2000);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, budgetMs);
      this.idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    server.closeIdleConnections();
  }
}
