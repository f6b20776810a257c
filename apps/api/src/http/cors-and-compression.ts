import type { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '@pos/platform';

/** Below this a compressed body is hardly smaller than the original; not worth the CPU. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * gzip for answers above ~1 KB when the client accepts it. The sync downloads compress their
 * own bodies (off the event loop) and set Content-Encoding, which this middleware leaves alone,
 * so nothing is compressed twice. A request that does not offer an Accept-Encoding cannot get a
 * compressed answer, so it skips the middleware (which otherwise wraps every response's write,
 * end and header hooks whatever it later decides).
 */
export function useCompression(app: NestExpressApplication): void {
  const compress = compression({ threshold: COMPRESS_MIN_BYTES });
  app.use((req: Request, res: Response, next: NextFunction) => (req.headers['accept-encoding'] ? compress(req, res, next) : next()));
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
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id', 'If-Match', 'If-None-Match'],
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed', 'Idempotency-Key-Retention', 'Content-Disposition', 'ETag'],
    maxAge: 600,
    preflightContinue: true,
  });
}
