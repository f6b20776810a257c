import type { Server } from 'node:http';
import { INestApplication, NestApplicationOptions, RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import type { Logger as Pino } from 'pino';
import { AppConfig, HttpServerConfig, loadConfig, Metrics, REQUEST_LOGGER } from '@pos/platform';
import { AppModule } from './app.module';
import { finishDocument } from './http/openapi';
import { documentConditionalRequests } from './http/conditional.openapi';
import { documentIdempotency } from './http/idempotency.openapi';
import { jsonBodies } from './http/body-parsing';
import { useMetricsEndpoint } from './http/http-metrics';
import { useCompression, useCors } from './http/cors-and-compression';
import { useDashboard } from './http/dashboard';
import { EnvelopeExpressAdapter } from './http/envelope';
import { edge } from './http/edge';
import { dropPlaceholderEnhancers } from './http/lean-pipeline';
import { HttpDrain } from './platform/http-drain';

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
  app.useLogger(app.get(Logger));
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
  app.use(edge({ logger: app.get<Pino>(REQUEST_LOGGER), metrics, drain }));
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
}

export function setupOpenApi(app: INestApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Point-of-Sale Service API')
      .setDescription(
        [
          'Cashier terminals, partner integrations and back office. Every response uses the envelope ' +
            '`{success, data, meta?, message?, errors?}`; each operation documents its `data` and its error statuses ' +
            '(errors use the ErrorEnvelope schema). Each operation lists its permission in `x-permission` and in its 403 description.',
          'Rate-limit tiers: login 5/min per IP and email (and 20/min per IP), standard 60/min, POS lookups 120/min, bulk 10/min.',
          'Numbers: a numeric string ("12.50") is accepted wherever a number is (query strings are always strings). ' +
            'Money has at most 2 decimal places (multipleOf 0.01); exchange rates at most 8.',
          'null: an optional field sent as null is the same as leaving it out, except fields marked nullable, where null clears the value. ' +
            'A required field sent as null is 422 "required".',
          'Text: control characters (tab and line breaks only in multi-line text), bidirectional override characters and unpaired ' +
            'UTF-16 surrogates are refused (422). Bodies are application/json only (415 otherwise), nested at most 32 levels (400).',
        ].join('\n\n'),
      )
      .setVersion('1.0.0')
      .addBearerAuth({
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque',
        description: 'Opaque token from POST /api/v1/auth/login, sent as `Authorization: Bearer <token>` only',
      })
      .build(),
  );
  SwaggerModule.setup('api/docs', app, documentConditionalRequests(documentIdempotency(finishDocument(document))), {
    jsonDocumentUrl: 'api/docs-json',
    useGlobalPrefix: false,
  });
}
