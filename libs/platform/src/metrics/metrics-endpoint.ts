import { createHash, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsConfig } from '../config/edge-config';
import { METRICS_CONTENT_TYPE, Metrics } from './metrics';

/**
 * GET /metrics as a plain node:http handler, so the API (Express) and the worker (no HTTP
 * framework) serve it the same way. With a token configured, anything but
 * `Authorization: Bearer <token>` is 401 (compared in constant time, through digests).
 */
export function metricsHandler(metrics: Metrics, token: string | undefined): (req: IncomingMessage, res: ServerResponse) => void {
  const expected = token ? digest(token) : null;
  return (req, res) => {
    if (expected) {
      const header = req.headers.authorization ?? '';
      const given = /^Bearer (.+)$/i.exec(header)?.[1] ?? '';
      if (!timingSafeEqual(digest(given), expected)) {
        res.statusCode = 401;
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end(JSON.stringify({ success: false, message: 'A valid metrics token is required.' }));
        return;
      }
    }
    metrics.text().then(
      (text) => {
        res.statusCode = 200;
        res.setHeader('Content-Type', METRICS_CONTENT_TYPE);
        res.end(text);
      },
      () => {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end(JSON.stringify({ success: false, message: 'Metrics could not be collected.' }));
      },
    );
  };
}

/**
 * An internal listener (the worker's, the API's METRICS_PORT): GET /metrics only, everything else
 * 404. A scraper sends one small request: slow or piled-up clients are cut short.
 */
export function startMetricsServer(metrics: Metrics, port: number, token: string | undefined, host: string): Promise<Server> {
  const handle = metricsHandler(metrics, token);
  const server = createServer({ headersTimeout: 5_000, requestTimeout: 10_000, connectionsCheckingInterval: 1_000 }, (req, res) => {
    if (req.method === 'GET' && (req.url ?? '').split('?')[0] === '/metrics') return handle(req, res);
    res.statusCode = 404;
    res.end();
  });
  server.maxConnections = 32;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * Starts an internal /metrics listener on `port`, bound to METRICS_HOST (127.0.0.1 by default, so
 * only the host itself, or a sidecar, can scrape without the token). A port already taken is
 * logged, never fatal: the process's real work matters more. Unref'd: it never keeps a process up.
 */
export async function serveMetricsListener(
  metrics: Metrics,
  config: MetricsConfig,
  port: number,
  logger: { log(message: string): void; error(message: string): void },
): Promise<Server | null> {
  try {
    const server = await startMetricsServer(metrics, port, config.token, config.host);
    server.unref();
    const { port: bound } = server.address() as AddressInfo;
    logger.log(`metrics on http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${bound}/metrics`);
    return server;
  } catch (error) {
    logger.error(`metrics not served on ${config.host}:${port}: ${(error as Error).message}`);
    return null;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
