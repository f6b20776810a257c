import type { Server } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { AppConfig, Metrics, serveMetricsListener } from '@pos/platform';

/**
 * The worker's own /metrics (it has no Nest HTTP): WORKER_METRICS_PORT, bound to METRICS_HOST
 * (127.0.0.1 unless set), so its sales counters are not on every interface of the host.
 */
export function serveWorkerMetrics(app: INestApplicationContext, config: AppConfig): Promise<Server | null> {
  if (!config.metrics.enabled || config.metrics.workerPort === 0) return Promise.resolve(null);
  return serveMetricsListener(app.get(Metrics), config.metrics, config.metrics.workerPort, app.get(Logger));
}
