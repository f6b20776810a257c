import type { Server } from 'node:http';
import type { Express, Request, Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppConfig, Metrics, metricsHandler, serveMetricsListener } from '@pos/platform';

/**
 * GET /metrics (outside /api/v1) on the API's own port, unless METRICS_ENABLED=false or
 * METRICS_PORT moves it to an internal listener (serveInternalMetrics). Requests are measured by the
 * edge middleware (http/edge.ts): one duration observation per response, labelled by the matched
 * route template (`/api/v1/sales/:id`), never the raw URL, so the series stay bounded; unmatched
 * paths (404s, static files) share one label. The in-flight gauge is read when scraped.
 */
export function useMetricsEndpoint(app: NestExpressApplication, config: AppConfig): void {
  if (!config.metrics.enabled || config.metrics.port !== 0) return;
  const serve = metricsHandler(app.get(Metrics), config.metrics.token);
  (app.getHttpAdapter().getInstance() as Express).get('/metrics', (req: Request, res: Response) => serve(req, res));
}

/**
 * With METRICS_PORT set, /metrics is served only there, bound to METRICS_HOST (127.0.0.1 unless
 * set): the sales counters never reach the API's public port. Called once the API listens.
 */
export function serveInternalMetrics(app: NestExpressApplication, config: AppConfig): Promise<Server | null> {
  if (!config.metrics.enabled || config.metrics.port === 0) return Promise.resolve(null);
  return serveMetricsListener(app.get(Metrics), config.metrics, config.metrics.port, app.get(Logger));
}
