import type { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import { AppConfig } from '@pos/platform';

/** Below this a compressed body is hardly smaller than the original; not worth the CPU. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * gzip for answers above ~1 KB when the client accepts it. The sync downloads compress their
 * own bodies (off the event loop) and set Content-Encoding, which this middleware leaves alone,
 * so nothing is compressed twice.
 */
export function useCompression(app: NestExpressApplication): void {
  app.use(compression({ threshold: COMPRESS_MIN_BYTES }));
}

/**
 * CORS is off unless CORS_ORIGINS lists origins: then those (exactly) may call the API from a
 * browser with a bearer token (no cookies are used, so no credentials mode). Preflights carry
 * on to the routes' own OPTIONS answer (204 with Allow; 404 for an unknown path).
 */
export function useCors(app: NestExpressApplication, config: AppConfig): void {
  if (config.corsOrigins.length === 0) return;
  app.enableCors({
    origin: config.corsOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed', 'Content-Disposition'],
    maxAge: 600,
    preflightContinue: true,
  });
}
