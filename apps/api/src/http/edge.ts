import type { NextFunction, Request, Response } from 'express';
import type { Logger as Pino } from 'pino';
import { Metrics, RequestContext, requestId, stripQuerySecrets } from '@pos/platform';
import type { HttpDrain } from '../platform/http-drain';
import { API_HEADERS, HeaderList, isPage, PAGE_HEADERS } from './security-headers';

export interface EdgeDeps {
  /** The request logger (no redaction needed: the line is built from known fields). */
  logger: Pino;
  /** Null when METRICS_ENABLED=false. */
  metrics: Metrics | null;
  drain: HttpDrain;
}

/** Health checks poll every few seconds: not worth a log line each. */
const UNLOGGED = new Set(['/api/v1/health', '/api/v1/health/live', '/api/v1/health/ready']);

/**
 * The first middleware, and the only per-request bookkeeping outside the route itself: the
 * request id (echoed when safe, else made; `X-Request-Id` on every response, even a body-parser
 * error), helmet's headers (worked out at boot), the in-flight registry the drain and the
 * metrics read, the request context (one AsyncLocalStorage run: request id, then the caller for
 * the audit trail and log lines), and, when the response is over, one duration observation
 * labelled by the matched route template and one log line (`request completed`, at error level
 * for a 5xx). One 'close' listener per response, no child logger.
 */
export function edge({ logger, metrics, drain }: EdgeDeps) {
  function finished(req: Request, res: Response, started: number, id: string): void {
    drain.untrack(res);
    const ms = performance.now() - started;
    const status = res.statusCode;
    if (metrics) {
      const route = (req.route as { path?: unknown } | undefined)?.path;
      metrics.observeHttp({ method: req.method, route: typeof route === 'string' ? req.baseUrl + route : 'unmatched', status, seconds: ms / 1000 });
    }
    const level = status >= 500 ? 'error' : 'info';
    if (logger.isLevelEnabled(level) && !UNLOGGED.has(req.path)) {
      const line: Record<string, unknown> = {
        request_id: id,
        req: { method: req.method, url: stripQuerySecrets(req.originalUrl) },
        res: { statusCode: status },
        responseTime: Math.round(ms),
      };
      if (!res.writableFinished) line.aborted = true;
      logger[level](line, 'request completed');
    }
  }

  return (req: Request & { id?: string }, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const id = requestId(req, res);
    req.id = id;
    const headers: HeaderList = isPage(req.path) ? PAGE_HEADERS : API_HEADERS;
    for (let i = 0; i < headers.length; i++) res.setHeader(headers[i][0], headers[i][1]);
    drain.track(res);
    res.on('close', () => finished(req, res, started, id));
    RequestContext.run({ requestId: id, arrivedAt: started }, next);
  };
}
