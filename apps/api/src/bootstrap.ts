import { INestApplication, NestApplicationOptions, RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppConfig, loadConfig } from '@pos/platform';
import { AppModule } from './app.module';
import { bodyParserErrorHandler, jsonBodyParser, requestIdMiddleware } from './http/body-parsing';

export const API_PREFIX = 'api/v1';

/**
 * Builds the HTTP application exactly as production runs it; main.ts and the e2e suites both
 * call this, so tests exercise the same middleware, guards, pipes and filters.
 */
export async function createApiApp(config: AppConfig = loadConfig(), options: NestApplicationOptions = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), { bufferLogs: true, bodyParser: false, ...options });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  app.use(requestIdMiddleware);
  // Offline uploads carry up to 500 sales: their own, larger limit (the parser marks the body read, so the general one skips it).
  app.use(`/${API_PREFIX}/sync/upload`, jsonBodyParser(config.sync.uploadBodyLimit));
  app.use(jsonBodyParser(config.bodyLimit));
  app.use(bodyParserErrorHandler);
  app.setGlobalPrefix(API_PREFIX, { exclude: [{ path: 'api/docs', method: RequestMethod.GET }] });
  app.enableShutdownHooks();
  if (config.openapi) setupOpenApi(app);
  return app;
}

export function setupOpenApi(app: INestApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Point-of-Sale Service API')
      .setDescription(
        'Cashier terminals, partner integrations and back office. Every response uses the envelope ' +
          '`{success, data, meta?, message?, errors?}`. Each operation lists its permission in `x-permission` ' +
          'and in its 403 description. Rate-limit tiers: login 5/min, standard 60/min, POS lookups 120/min, bulk 10/min.',
      )
      .setVersion('1.0.0')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Opaque token from POST /api/v1/auth/login' })
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json', useGlobalPrefix: false });
}
