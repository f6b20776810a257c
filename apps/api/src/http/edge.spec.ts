import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import type { Logger as Pino } from 'pino';
import type { HttpDrain } from '../platform/http-drain';
import { edge } from './edge';

type Level = 'debug' | 'info' | 'error';

/** A pino stand-in recording what the edge writes, at a given level. */
function recorder(level: Level) {
  const rank: Record<string, number> = { debug: 20, info: 30, error: 50 };
  const lines: { level: string; line: Record<string, unknown> }[] = [];
  const logger = {
    isLevelEnabled: (l: string) => rank[l] >= rank[level],
    info: (line: Record<string, unknown>) => lines.push({ level: 'info', line }),
    error: (line: Record<string, unknown>) => lines.push({ level: 'error', line }),
  };
  return { logger: logger as unknown as Pino, lines };
}

const drain = { track: () => undefined, untrack: () => undefined } as unknown as HttpDrain;

/** One request through the edge, answered with `status` (`aborted`: the client hung up first). */
function serve(middleware: ReturnType<typeof edge>, status: number, { aborted = false, url = '/api/v1/auth/me' } = {}): string {
  const req = { headers: {}, method: 'GET', path: url, originalUrl: url, baseUrl: '' } as unknown as Request & { id?: string };
  const res = Object.assign(new EventEmitter(), { req, statusCode: status, writableFinished: !aborted, setHeader: () => undefined });
  middleware(req, res as unknown as Response, (() => undefined) as NextFunction);
  res.emit('close');
  return req.id!;
}

describe('edge: the request log line', () => {
  it('writes every request by default (LOG_SAMPLE=1), with its request id', () => {
    const { logger, lines } = recorder('info');
    const mw = edge({ logger, metrics: null, drain });
    const ids = [serve(mw, 200), serve(mw, 200), serve(mw, 201)];
    expect(lines.map((l) => l.line.request_id)).toEqual(ids);
    expect(lines[0]).toMatchObject({ level: 'info', line: { req: { method: 'GET', url: '/api/v1/auth/me' }, res: { statusCode: 200 } } });
  });

  it('LOG_SAMPLE=N writes one in N successful fast requests at info, and every 4xx, 5xx and aborted one', () => {
    const { logger, lines } = recorder('info');
    const mw = edge({ logger, metrics: null, drain, logSample: 4 });
    const ok = Array.from({ length: 8 }, () => serve(mw, 200));
    expect(lines.map((l) => l.line.request_id)).toEqual([ok[3], ok[7]]);
    lines.length = 0;
    const unauthorized = serve(mw, 401);
    const failed = serve(mw, 500);
    const aborted = serve(mw, 200, { aborted: true });
    expect(lines).toEqual([
      { level: 'info', line: expect.objectContaining({ request_id: unauthorized, res: { statusCode: 401 } }) },
      { level: 'error', line: expect.objectContaining({ request_id: failed, res: { statusCode: 500 } }) },
      { level: 'info', line: expect.objectContaining({ request_id: aborted, aborted: true }) },
    ]);
  });

  it('LOG_SAMPLE=N still writes every request slower than a second', () => {
    const { logger, lines } = recorder('info');
    const mw = edge({ logger, metrics: null, drain, logSample: 1000 });
    const clock = jest.spyOn(performance, 'now');
    try {
      clock.mockReturnValueOnce(0).mockReturnValueOnce(999);
      serve(mw, 200);
      clock.mockReturnValueOnce(0).mockReturnValueOnce(1000);
      const slow = serve(mw, 200);
      expect(lines).toEqual([{ level: 'info', line: expect.objectContaining({ request_id: slow, responseTime: 1000 }) }]);
    } finally {
      clock.mockRestore();
    }
  });

  it('at debug every request is written whatever LOG_SAMPLE says; health checks never are', () => {
    const { logger, lines } = recorder('debug');
    const mw = edge({ logger, metrics: null, drain, logSample: 100 });
    const ids = [serve(mw, 200), serve(mw, 200), serve(mw, 204)];
    serve(mw, 200, { url: '/api/v1/health' });
    expect(lines.map((l) => l.line.request_id)).toEqual(ids);
  });
});
