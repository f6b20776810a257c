import fs from 'node:fs';
import request from 'supertest';
import { GUARDS_METADATA, INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { IdempotencyBodyKeyGuard } from '../../apps/api/src/http/idempotency-body-key.guard';
import { globalEnhancers } from '../../apps/api/src/http/lean-pipeline';
import { ReturnsController } from '../../apps/api/src/returns/returns.controller';
import { CheckoutController } from '../../apps/api/src/sales/checkout.controller';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

// Lines written to fd 1 (pino's SonicBoom) are captured, not printed.
const lines: string[] = [];
type Write = (fd: number, data: unknown, ...rest: unknown[]) => unknown;
const realWrite = fs.write as unknown as Write;
jest.spyOn(fs, 'write').mockImplementation(((fd: number, data: unknown, ...rest: unknown[]) => {
  if (fd !== 1) return realWrite(fd, data, ...rest);
  lines.push(...String(data).split('\n').filter(Boolean));
  const cb = rest.find((r): r is (e: null, n: number) => void => typeof r === 'function');
  const n = typeof data === 'string' ? Buffer.byteLength(data) : (data as Buffer).length;
  if (cb) process.nextTick(() => cb(null, n));
}) as unknown as typeof fs.write);

const eventually = async <T>(read: () => T, ok: (v: T) => boolean): Promise<T> => {
  for (let i = 0; i < 100; i++) {
    const v = read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  return read();
};

describe('The request pipeline stays lean', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs one global guard and no interceptor on every route (nestjs-cls placeholders dropped)', () => {
    expect(globalEnhancers(t.app)).toEqual({ guards: ['AccessGuard'], interceptors: [] });
  });

  it('runs no interceptor on checkout or a return: their Idempotency-Key header is a route guard', () => {
    for (const handler of [CheckoutController.prototype.create, ReturnsController.prototype.create]) {
      expect(Reflect.getMetadata(INTERCEPTORS_METADATA, handler)).toBeUndefined();
      const guards = Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[];
      expect(guards.filter((g) => g instanceof IdempotencyBodyKeyGuard)).toHaveLength(1);
    }
  });

  it('still wraps every answer in the envelope (the HTTP adapter does it)', async () => {
    const token = await login(t, DEMO.cashier);
    const me = await request(t.http).get('/api/v1/auth/me').set(bearer(token));
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ success: true, data: expect.objectContaining({ email: DEMO.cashier }) });
    const logout = await request(t.http).post('/api/v1/auth/logout').set(bearer(token));
    expect(logout.status).toBe(201);
    expect(logout.body.success).toBe(true);
  });

  it('writes one line per request with its id, status and URL, never the token or a query secret', async () => {
    const token = await login(t, DEMO.manager);
    const res = await request(t.http).get('/api/v1/auth/me?access_token=leaked-secret&x=1').set(bearer(token));
    const id = res.headers['x-request-id'] as string;
    expect(id).toBeTruthy();
    const mine = await eventually(
      () => lines.filter((l) => l.includes(id)),
      (found) => found.length > 0,
    );
    expect(mine).toHaveLength(1);
    const line = JSON.parse(mine[0]) as Record<string, unknown>;
    expect(line).toMatchObject({
      msg: 'request completed',
      request_id: id,
      req: { method: 'GET', url: '/api/v1/auth/me?access_token=[redacted]&x=1' },
      res: { statusCode: res.status },
    });
    expect(typeof line.responseTime).toBe('number');
    const all = lines.join('\n');
    expect(all).not.toContain(token);
    expect(all).not.toContain('leaked-secret');
  });

  it('does not log health checks', async () => {
    const res = await request(t.http).get('/api/v1/health');
    const id = res.headers['x-request-id'] as string;
    await new Promise((r) => setTimeout(r, 100));
    expect(lines.filter((l) => l.includes(id))).toEqual([]);
  });
});
