import type { Express, NextFunction, Request, Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig, Metrics, metricsHandler } from '@pos/platform';

/**
 * Counts a request in flight until its response ends, and observes its duration once, on
 * 'finish', labelled by the matched route template (`/api/v1/sales/:id`), never the raw URL, so
 * the series stay bounded; unmatched paths (404s, static files) share one label.
 */
export function httpMetrics(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    metrics.requestStarted();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      metrics.requestEnded();
    };
    res.once('finish', () => {
      end();
      const route = (req.route as { path?: unknown } | undefined)?.path;
      metrics.observeHttp({
        method: req.method,
        route: typeof route === 'string' ? req.baseUrl + route : 'unmatched',
        status: res.statusCode,
        seconds: (performance.now() - started) / 1000,
      });
    });
    res.once('close', end);
    next();
  };
}

/** Request metrics on every route and GET /metrics (outside /api/v1), unless METRICS_ENABLED=false. */
export function useMetrics(app: NestExpressApplication, config: AppConfig): void {
  if (!config.metrics.enabled) return;
  const metrics = app.get(Metrics);
  app.use(httpMetrics(metrics));
  const serve = metricsHandler(metrics, config.metrics.token);
  (app.getHttpAdapter().getInstance() as Express).get('/metrics', (req: Request, res: Response) => serve(req, res));
}
