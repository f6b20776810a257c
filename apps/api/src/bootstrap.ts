import type { Server } from 'node:http';
import { INestApplication, NestApplicationOptions, RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import type { Logger as Pino } from 'pino';
import { AppConfig, HttpServerConfig, loadConfig, Metrics, quietBoot, REQUEST_LOGGER } from '@pos/platform';
import { AppModule } from './app.module';
import { buildOpenApiDocument } from './http/openapi-document';
import { jsonBodies } from './http/body-parsing';
import { useMetricsEndpoint } from './http/http-metrics';
import { useCompression, useCors } from './http/cors-and-compression';
import { useDashboard } from './http/dashboard';
import { EnvelopeExpressAdapter } from './http/envelope';
import { edge } from './http/edge';
import { dropPlaceholderEnhancers } from './http/lean-pipeline';
import { HttpDrain } from './platform/http-drain';
import { answerClientErrors } from './http/client-errors';

export const API_PREFIX = 'api/v1';

/**
 * Builds the HTTP application exactly as production runs it; main.ts and the e2e suites both
 * call this, so tests exercise the same middleware, guards, pipes and filters.
 */
export async function createApiApp(config: AppConfig = loadConfig(), options: NestApplicationOptions = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), new EnvelopeExpressAdapter(), {
    bufferLogs: true,
    bodyParser: false,
    ...options,
  });
  app.useLogger(quietBoot(app.get(Logger)));
  dropPlaceholderEnhancers(app);
  app.disable('x-powered-by');
  // false by default: the socket's address is the client's. A list of proxies (TRUST_PROXY) lets
  // X-Forwarded-For name the client only when it arrives through one of them (login limits key on it).
  app.set('trust proxy', config.trustProxy);
  boundSlowClients(app.getHttpServer() as Server, config.http);
  app.set('etag', false);
  const metrics = config.metrics.enabled ? app.get(Metrics) : null;
  const drain = app.get(HttpDrain);
  metrics?.countInFlightWith(() => drain.inFlightCount);
  app.use(edge({ logger: app.get<Pino>(REQUEST_LOGGER), metrics, drain, logSample: config.logSample }));
  useMetricsEndpoint(app, config);
  useCors(app, config);
  useCompression(app);
  useDashboard(app);
  app.use(jsonBodies(config.bodyLimit, [{ path: `/${API_PREFIX}/sync/upload`, limit: config.sync.uploadBodyLimit }]));
  app.setGlobalPrefix(API_PREFIX, { exclude: [{ path: 'api/docs', method: RequestMethod.GET }] });
  // Signals are handled by main.ts (drain, then exit 0); the suites call app.close() themselves.
  if (config.openapi) setupOpenApi(app);
  return app;
}

/**
 * Node's bounds on slow clients (issue 25): complete headers within headersTimeout and the whole
 * request within requestTimeout (else 408 and the connection is closed), checked every second at
 * most rather than Node's 30 s; idle keep-alive connections closed after keepAliveTimeout; at most
 * maxConnections open (Node closes new ones at once). Node starts none of these clocks before a
 * connection's first byte, so a connection that sends nothing gets headersTimeout here, cleared
 * when its first request arrives (Node then runs its own keep-alive clock between requests).
 */
export function boundSlowClients(server: Server, limits: HttpServerConfig): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  // Read by Node when the server starts listening.
  const checkEveryMs = Math.max(100, Math.min(1000, Math.floor(limits.headersTimeoutMs / 2)));
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = checkEveryMs;
  server.on('connection', (socket) => socket.setTimeout(limits.headersTimeoutMs));
  server.on('request', (req) => {
    if (req.socket.timeout) req.socket.setTimeout(0);
  });
  answerClientErrors(server);
}

export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('api/docs', app, buildOpenApiDocument(app), {
    jsonDocumentUrl: 'api/docs-json',
    useGlobalPrefix: false,
  });
}
