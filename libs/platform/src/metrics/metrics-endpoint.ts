import { createHash, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
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

/** The worker's listener: GET /metrics only, everything else 404. */
export function startMetricsServer(metrics: Metrics, port: number, token: string | undefined, host?: string): Promise<Server> {
  const handle = metricsHandler(metrics, token);
  const server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url ?? '').split('?')[0] === '/metrics') return handle(req, res);
    res.statusCode = 404;
    res.end();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
