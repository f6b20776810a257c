import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../config';
import { APP_CONFIG } from '../config/config.module';

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

/** pino JSON logs, one line per request with its request id (never a token or password). */
@Module({})
export class LoggingModule {
  static forRoot(): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({
            forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
            pinoHttp: {
              level: config.logLevel,
              genReqId: (req: IncomingMessage, res: ServerResponse) => (req as IncomingMessage & { id?: string }).id ?? requestId(req, res),
              redact: { paths: REDACT_PATHS, censor: '[redacted]' },
              customProps: (req: IncomingMessage) => ({ request_id: (req as IncomingMessage & { id?: string }).id }),
              serializers: {
                req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: stripQuerySecrets(req.url) }),
                res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
              },
              autoLogging: { ignore: (req: IncomingMessage) => req.url === '/api/v1/health' },
            },
          }),
        }),
      ],
      exports: [LoggerModule],
    };
  }
}

/** Credentials in a query string (`?access_token=` is refused, but a client may still send it) never reach the log. */
export function stripQuerySecrets(url: string): string {
  return url.replace(/([?&](?:access_token|token|password|secret|signature|pin|code|two_factor_code)=)[^&]*/gi, '$1[redacted]');
}
