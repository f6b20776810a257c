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
  /** LOG_SAMPLE: at info, one line for this many successful fast requests (1: every request). */
  logSample?: number;
}

/** Health checks poll every few seconds: not worth a log line each. */
const UNLOGGED = new Set(['/api/v1/health', '/api/v1/health/live', '/api/v1/health/ready']);
/** A request answered in this long or longer is always logged (not sampled). */
export const SLOW_REQUEST_MS = 1000;
/** When the request arrived (performance.now()), kept on its response for the 'close' listener. */
const ARRIVED = Symbol('arrived');

type EdgeRequest = Request & { id?: string };
type EdgeResponse = Response & { [ARRIVED]: number; req: EdgeRequest };

/**
 * The first middleware, and the only per-request bookkeeping outside the route itself: the
 * request id (echoed when safe, else made; `X-Request-Id` on every response, even a body-parser
 * error), helmet's headers (worked out at boot), the in-flight registry the drain and the
 * metrics read, the request context (one run of its async facet: request id, then the caller for
 * the audit trail and log lines), and, when the response is over, one duration observation
 * labelled by the matched route template and one log line (`request completed`, at error level
 * for a 5xx). One 'close' listener, the same function for every response (no closure, no child
 * logger per request).
 *
 * LOG_SAMPLE=N (default 1) writes, at info, the line of one in N successful requests answered
 * within SLOW_REQUEST_MS; a 4xx, a 5xx, a slow or an aborted request is always written, and at
 * debug every request is. The request id is on the response (X-Request-Id) and on every line
 * written while serving it either way.
 */
export function edge({ logger, metrics, drain, logSample = 1 }: EdgeDeps) {
  let unwritten = 0;

  function onClose(this: EdgeResponse): void {
    finished(this);
  }

  function finished(res: EdgeResponse): void {
    const req = res.req;
    drain.untrack(res);
    const ms = performance.now() - res[ARRIVED];
    const status = res.statusCode;
    if (metrics) {
      const route = (req.route as { path?: unknown } | undefined)?.path;
      metrics.observeHttp({ method: req.method, route: typeof route === 'string' ? req.baseUrl + route : 'unmatched', status, seconds: ms / 1000 });
    }
    const level = status >= 500 ? 'error' : 'info';
    if (!logger.isLevelEnabled(level) || UNLOGGED.has(req.path)) return;
    const aborted = !res.writableFinished;
    if (logSample > 1 && status < 400 && ms < SLOW_REQUEST_MS && !aborted && !logger.isLevelEnabled('debug')) {
      if (++unwritten < logSample) return;
      unwritten = 0;
    }
    const line: Record<string, unknown> = {
      request_id: req.id,
      req: { method: req.method, url: stripQuerySecrets(req.originalUrl) },
      res: { statusCode: status },
      responseTime: Math.round(ms),
    };
    if (aborted) line.aborted = true;
    logger[level](line, 'request completed');
  }

  return (req: EdgeRequest, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const id = requestId(req, res);
    req.id = id;
    const headers: HeaderList = isPage(req.path) ? PAGE_HEADERS : API_HEADERS;
    for (let i = 0; i < headers.length; i++) res.setHeader(headers[i][0], headers[i][1]);
    (res as EdgeResponse)[ARRIVED] = started;
    drain.track(res);
    res.on('close', onClose);
    RequestContext.run({ requestId: id, arrivedAt: started }, next);
  };
}
