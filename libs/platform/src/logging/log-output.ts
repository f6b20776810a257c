import type { DestinationStream } from 'pino';
import pino from 'pino';
import { PinoPretty } from 'pino-pretty';
import type { AppConfig } from '../config';

type LogFacts = Record<string, unknown> & {
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  request_id?: string;
  context?: string;
};

/**
 * One readable line per entry: a request as `GET /api/v1/items 200 12ms · 1f0c9a2e`, anything
 * else as `[Context] message`. The fields folded into the line are left out of the extras that
 * pino-pretty prints after it (on the same line: singleLine).
 */
export function prettyLine(log: LogFacts, messageKey: string): string {
  const id = typeof log.request_id === 'string' ? ` · ${log.request_id.slice(0, 8)}` : '';
  if (log.req && log.res) {
    const aborted = log.aborted === true ? ' (aborted)' : '';
    return `${log.req.method ?? '?'} ${log.req.url ?? '?'} ${log.res.statusCode ?? '?'} ${log.responseTime ?? '?'}ms${aborted}${id}`;
  }
  const context = typeof log.context === 'string' ? `[${log.context}] ` : '';
  return `${context}${String(log[messageKey] ?? '')}${id}`;
}

/** `auto` is pretty only where a person reads it: development, on a terminal. */
export function wantsPrettyLogs(config: Pick<AppConfig, 'env' | 'logFormat'>, isTty = Boolean(process.stdout.isTTY)): boolean {
  if (config.logFormat !== 'auto') return config.logFormat === 'pretty';
  return config.env === 'development' && isTty;
}

/**
 * Where the process's log lines go: stdout through pino's asynchronous SonicBoom as JSON (what a
 * log shipper reads), or, in development on a terminal, through pino-pretty in this process (no
 * worker thread) with local clock times and colour.
 */
export function logOutput(config: Pick<AppConfig, 'env' | 'logFormat'>): DestinationStream {
  if (!wantsPrettyLogs(config)) return pino.destination({ dest: 1, sync: false });
  return PinoPretty({
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime,request_id,context,aborted',
    singleLine: true,
    messageFormat: (log, messageKey) => prettyLine(log as LogFacts, messageKey),
  });
}
