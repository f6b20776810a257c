import type { LoggerService } from '@nestjs/common';

/** Wiring chatter: a line per module, controller and route (about 300 at boot), and the registries' counts. */
const WIRING_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'Jobs', 'DomainEvents']);

/**
 * Nest's logger with its wiring lines moved from info to debug, so a boot says in a few lines
 * what it did (LOG_LEVEL=debug shows every mapped route again). Nest passes the context as the
 * last argument of `log`.
 */
export function quietBoot(logger: LoggerService): LoggerService {
  const isWiring = (params: unknown[]): boolean => {
    const context = params[params.length - 1];
    return typeof context === 'string' && WIRING_CONTEXTS.has(context);
  };
  return {
    log: (message: unknown, ...params: unknown[]) => (isWiring(params) ? logger.debug?.(message, ...params) : logger.log(message, ...params)),
    error: (message: unknown, ...params: unknown[]) => logger.error(message, ...params),
    warn: (message: unknown, ...params: unknown[]) => logger.warn(message, ...params),
    debug: (message: unknown, ...params: unknown[]) => logger.debug?.(message, ...params),
    verbose: (message: unknown, ...params: unknown[]) => logger.verbose?.(message, ...params),
    fatal: (message: unknown, ...params: unknown[]) => (logger.fatal ?? logger.error).call(logger, message, ...params),
  };
}
