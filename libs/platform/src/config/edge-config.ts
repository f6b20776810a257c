import { isIP } from 'node:net';

/**
 * What the HTTP edge exposes and how long it waits (issue 25): the server's time and connection
 * bounds, which proxies may name the client's address, and who may read /metrics. Read by
 * `loadConfig` with the same reader (every bad variable is named at once).
 */

/** The part of loadConfig's reader used here (structural: this file does not import app-config, which imports it). */
interface EnvReader {
  string(name: string): string | undefined;
  int(name: string, fallback: number, min: number, max: number): number;
  bool(name: string, fallback: boolean): boolean;
}

/** Node's http.Server bounds (applied by the API's bootstrap). */
export interface HttpServerConfig {
  /** A client has this long to send its complete request headers (and a new connection its first request); else 408 and the connection is closed. */
  headersTimeoutMs: number;
  /** ... and this long for the whole request, body included (sized for the largest body: POST /sync/upload). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (keep it above a load balancer's idle timeout). */
  keepAliveTimeoutMs: number;
  /** Open connections at once; beyond it new connections are closed at once. */
  maxConnections: number;
}

/**
 * Express `trust proxy`: false (the socket's address is the client's), a list of proxy addresses
 * and CIDRs (X-Forwarded-For is read through those only), or true (any hop: refused in production).
 */
export type TrustProxy = boolean | string[];

/** Prometheus metrics: GET /metrics on the API (or its internal listener), a small listener in the worker. */
export interface MetricsConfig {
  enabled: boolean;
  /** When set, /metrics requires `Authorization: Bearer <token>`. */
  token?: string;
  /** The API's internal /metrics listener; 0: none, /metrics is served on the API's own port. */
  port: number;
  /** Interface the internal listeners (the API's METRICS_PORT, the worker's) bind to. */
  host: string;
  /** The worker's own /metrics listener (0: none). */
  workerPort: number;
}

export function readHttpServer(read: EnvReader, problems: string[]): HttpServerConfig {
  const http: HttpServerConfig = {
    headersTimeoutMs: read.int('HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    requestTimeoutMs: read.int('HTTP_REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000),
    keepAliveTimeoutMs: read.int('HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    maxConnections: read.int('HTTP_MAX_CONNECTIONS', 1_000, 1, 1_000_000),
  };
  if (http.headersTimeoutMs > http.requestTimeoutMs) problems.push('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  return http;
}

const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

export function readTrustProxy(read: EnvReader, production: boolean, problems: string[]): TrustProxy {
  const raw = read.string('TRUST_PROXY');
  if (raw === undefined) return false;
  const flag = raw.trim().toLowerCase();
  if (['0', 'false', 'no', 'off'].includes(flag)) return false;
  if (['1', 'true', 'yes', 'on'].includes(flag)) {
    if (production)
      problems.push(
        'TRUST_PROXY=true lets any client set its own address (X-Forwarded-For) past the login limits: list your proxies instead, e.g. TRUST_PROXY=10.0.0.0/8',
      );
    return true;
  }
  const list = raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const bad = list.filter((p) => !isProxyAddress(p));
  if (bad.length || !list.length)
    problems.push(`TRUST_PROXY must be false or comma-separated proxy addresses or CIDRs, e.g. 10.0.0.0/8,127.0.0.1 (got "${bad.join('", "') || raw}")`);
  return list.filter((p) => !bad.includes(p));
}

/** An address, a CIDR (10.0.0.0/8, fd00::/8) or one of Express's names (loopback, linklocal, uniquelocal). */
function isProxyAddress(value: string): boolean {
  if (NAMED_RANGES.includes(value.toLowerCase())) return true;
  const [address, bits, extra] = value.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export function readMetrics(read: EnvReader, production: boolean, apiPort: number, problems: string[]): MetricsConfig {
  const metrics: MetricsConfig = {
    enabled: read.bool('METRICS_ENABLED', true),
    token: read.string('METRICS_TOKEN'),
    port: read.int('METRICS_PORT', 0, 0, 65535),
    host: read.string('METRICS_HOST') ?? '127.0.0.1',
    workerPort: read.int('WORKER_METRICS_PORT', 9464, 0, 65535),
  };
  if (metrics.host !== 'localhost' && !isIP(metrics.host)) problems.push(`METRICS_HOST must be an IP address or localhost (got "${metrics.host}")`);
  if (metrics.port !== 0 && metrics.port === apiPort) problems.push('METRICS_PORT must differ from PORT (it is a separate, internal listener)');
  // Sales figures (checkout counts and amounts) must not be readable by whoever reaches the API.
  if (production && metrics.enabled && !metrics.token && (metrics.port === 0 || !isLoopback(metrics.host)))
    problems.push(
      'METRICS_TOKEN is required when NODE_ENV=production, unless metrics are served only on an internal listener (METRICS_PORT, with METRICS_HOST a loopback address) or METRICS_ENABLED=false',
    );
  return metrics;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
