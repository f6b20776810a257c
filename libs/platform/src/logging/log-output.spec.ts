import { prettyLine, wantsPrettyLogs } from './log-output';
import { quietBoot } from './quiet-boot';

describe('development log lines', () => {
  it('are pretty only where a person reads them, unless LOG_FORMAT says so', () => {
    expect(wantsPrettyLogs({ env: 'development', logFormat: 'auto' }, true)).toBe(true);
    expect(wantsPrettyLogs({ env: 'development', logFormat: 'auto' }, false)).toBe(false);
    expect(wantsPrettyLogs({ env: 'production', logFormat: 'auto' }, true)).toBe(false);
    expect(wantsPrettyLogs({ env: 'production', logFormat: 'pretty' }, false)).toBe(true);
    expect(wantsPrettyLogs({ env: 'development', logFormat: 'json' }, true)).toBe(false);
  });

  it('put a request on one line with its method, URL, status, time and short request id', () => {
    const line = prettyLine(
      {
        msg: 'request completed',
        req: { method: 'GET', url: '/api/v1/items?q=milk' },
        res: { statusCode: 200 },
        responseTime: 12,
        request_id: '1f0c9a2e-77aa-4b0e-9d6c-3a1b2c3d4e5f',
      },
      'msg',
    );
    expect(line).toBe('GET /api/v1/items?q=milk 200 12ms · 1f0c9a2e');
  });

  it('prefix other lines with their context', () => {
    expect(prettyLine({ msg: 'Demo data loaded', context: 'DemoData' }, 'msg')).toBe('[DemoData] Demo data loaded');
  });
});

describe('quietBoot', () => {
  it("moves Nest's wiring lines to debug and keeps the rest at their level", () => {
    const calls: string[] = [];
    const inner = {
      log: (m: unknown, c?: unknown) => calls.push(`log ${String(m)} ${String(c)}`),
      debug: (m: unknown, c?: unknown) => calls.push(`debug ${String(m)} ${String(c)}`),
      error: (m: unknown) => calls.push(`error ${String(m)}`),
      warn: (m: unknown) => calls.push(`warn ${String(m)}`),
    };
    const logger = quietBoot(inner);
    logger.log('Mapped {/api/v1/items, GET} route', 'RouterExplorer');
    logger.log('Demo data loaded', 'DemoData');
    logger.warn('careful');
    expect(calls).toEqual(['debug Mapped {/api/v1/items, GET} route RouterExplorer', 'log Demo data loaded DemoData', 'warn careful']);
  });
});
