import { Injectable, Logger } from '@nestjs/common';

/**
 * Whether this process is draining (shutting down gracefully): the one place that knows, for
 * every part that must behave differently meanwhile. In the API, readiness answers 503 and
 * responses carry `Connection: close` (apps/api/src/platform/http-drain.ts); in the worker,
 * long jobs stop at their next chunk boundary and leave the rest queued (bulk prices).
 * Draining starts in the first beforeApplicationShutdown hook (SIGTERM -> app.close()).
 */
@Injectable()
export class ProcessLifecycle {
  private readonly logger = new Logger('Lifecycle');
  private drainingSince?: number;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** Idempotent; returns true the first time. */
  beginDrain(reason = 'shutdown'): boolean {
    if (this.drainingSince !== undefined) return false;
    this.drainingSince = Date.now();
    this.logger.log(`draining (${reason})`);
    return true;
  }
}
