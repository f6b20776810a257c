import type { Express, Request, Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig, Metrics, metricsHandler } from '@pos/platform';

/**
 * GET /metrics (outside /api/v1), unless METRICS_ENABLED=false. Requests are measured by the
 * edge middleware (http/edge.ts): one duration observation per response, labelled by the matched
 * route template (`/api/v1/sales/:id`), never the raw URL, so the series stay bounded; unmatched
 * paths (404s, static files) share one label. The in-flight gauge is read when scraped.
 */
export function useMetricsEndpoint(app: NestExpressApplication, config: AppConfig): void {
  if (!config.metrics.enabled) return;
  const serve = metricsHandler(app.get(Metrics), config.metrics.token);
  (app.getHttpAdapter().getInstance() as Express).get('/metrics', (req: Request, res: Response) => serve(req, res));
}
