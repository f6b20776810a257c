import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino, { Logger as Pino } from 'pino';
import { AppConfig } from '../config';
import { APP_CONFIG } from '../config/config.module';
import { RequestContext } from '../audit/request-context';
import { logOutput } from './log-output';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes the client's X-Request-Id when it is safe to echo, else makes one; sets the header. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** Paths never logged: credentials, tokens, secrets, wherever they appear. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.secret',
  '*.two_factor_code',
  '*.pin',
  '*.access_token',
];

/** The process's pino logger: what Nest's Logger writes through. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
/** The request log's pino logger (apps/api http/edge.ts): same output, level and format. */
export const REQUEST_LOGGER = Symbol('REQUEST_LOGGER');

/**
 * One output per process (logOutput: JSON through pino's asynchronous SonicBoom, or pino-pretty
 * in development on a terminal) and two loggers on it:
 *  - the root logger, for everything the application logs: objects are redacted (REDACT_PATHS),
 *    and a line written while a request is being served carries its `request_id` (a mixin reading
 *    the request context), so it shares the id with the request's own line without a child logger
 *    per request;
 *  - the request logger, one line per request built by the edge from known fields only (method,
 *    URL without query secrets, status, time, request id): nothing to redact, no mixin.
 */
export function createLoggers(config: Pick<AppConfig, 'logLevel' | 'logFormat' | 'env'>): { root: Pino; requests: Pino } {
  const output = logOutput(config);
  const root = pino(
    {
      level: config.logLevel,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      mixin: () => {
        const facts = RequestContext.get();
        return facts ? { request_id: facts.requestId } : {};
      },
    },
    output,
  );
  return { root, requests: pino({ level: config.logLevel }, output) };
}

const LOGGERS = Symbol('LOGGERS');

@Module({
  providers: [
    { provide: LOGGERS, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createLoggers(config) },
    { provide: ROOT_LOGGER, inject: [LOGGERS], useFactory: (l: { root: Pino }) => l.root },
    { provide: REQUEST_LOGGER, inject: [LOGGERS], useFactory: (l: { requests: Pino }) => l.requests },
  ],
  exports: [ROOT_LOGGER, REQUEST_LOGGER],
})
class RootLoggerModule {}

/**
 * pino JSON logs. Nest's Logger goes through nestjs-pino onto the root logger; nestjs-pino's own
 * per-request middleware (pino-http: a child logger, serializers and an AsyncLocalStorage run on
 * every request) is not mounted: the API's edge middleware writes one line per request itself
 * (`request completed`, with method, URL without secrets, status and time), never a token or password.
 */
@Module({})
export class LoggingModule {
  static forRoot(): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        RootLoggerModule,
        LoggerModule.forRootAsync({
          imports: [RootLoggerModule],
          inject: [ROOT_LOGGER],
          useFactory: (logger: Pino) => ({ pinoHttp: { logger }, forRoutes: [] }),
        }),
      ],
      exports: [LoggerModule, RootLoggerModule],
    };
  }
}

/** Credentials in a query string (`?access_token=` is refused, but a client may still send it) never reach the log. */
export function stripQuerySecrets(url: string): string {
  if (!url.includes('=')) return url;
  return url.replace(/([?&](?:access_token|token|password|secret|signature|pin|code|two_factor_code)=)[^&]*/gi, '$1[redacted]');
}
