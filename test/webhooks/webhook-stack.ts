import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import { INestApplicationContext, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import request from 'supertest';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';
import { Received, WebhookReceiver } from './receiver';

/**
 * Shared setup of the signed-webhook suites (webhook-endpoints, webhook-deliveries): end to end, on
 * the embedded default (relay and deliveries in the API process) and on MySQL + Redis (BullMQ,
 * relay and deliveries in a worker context), with a real receiver on 127.0.0.1. The app allows
 * private targets (everything here is loopback) except in the SSRF block, which runs its own app
 * with the default setting. Retries are 1 s apart.
 */
export const FAST = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1',
  WEBHOOK_RELAY_INTERVAL_MS: '100',
  WEBHOOK_SWEEP_INTERVAL_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '3000',
  LOG_LEVEL: 'debug',
};
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export interface Stack {
  t: TestApp;
  worker?: INestApplicationContext;
  /** Where the relay and the deliveries run: the worker with Redis, else the API. */
  runner: INestApplicationContext;
  close(): Promise<void>;
}

export async function startStack(overrides: Record<string, string>): Promise<Stack> {
  const t = await startTestApp(overrides);
  // The harness boots with `logger: false` and buffered logs, which leaves Nest's log buffer
  // attached (every Logger line held back): flush it so this suite sees what production logs.
  Logger.flush();
  let worker: INestApplicationContext | undefined;
  if (t.isMysql) {
    worker = await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false });
    await worker.init();
    // `logger: false` above switched Nest's (process-wide) logger off again: back to pino.
    t.app.useLogger(t.app.get(PinoNestLogger));
    Logger.flush();
  }
  return {
    t,
    worker,
    runner: worker ?? t.app,
    close: async () => {
      await worker?.close();
      await t.close();
    },
  };
}

/** A timestamp parameter for raw SQL (better-sqlite3 binds no Date). */
export function sqlTime(t: TestApp, d: Date): Date | string {
  return t.isMysql ? d : d.toISOString().replace('T', ' ').replace('Z', '');
}

export function signatureOf(secret: string, r: Received): string {
  return createHmac('sha256', secret)
    .update(`${String(r.headers['x-service-timestamp'])}.${r.rawBody}`)
    .digest('hex');
}

/**
 * Captures (does not print) every log line the service writes, so a test can look for secrets in
 * it: pino writes to fd 1 through fs.write (SonicBoom), or to process.stdout when something (jest)
 * has patched it, so both are intercepted. Call once at the top of a suite file.
 */
export function captureLogs(): string[] {
  const logged: string[] = [];
  const realStdoutWrite = process.stdout.write.bind(process.stdout);
  jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
    const text = String(chunk);
    if (!text.startsWith('{"level"')) return (realStdoutWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
    logged.push(text);
    const cb = rest.find((r): r is () => void => typeof r === 'function');
    if (cb) process.nextTick(cb);
    return true;
  }) as typeof process.stdout.write);
  type Write = (fd: number, data: unknown, ...rest: unknown[]) => unknown;
  const realWrite = fs.write as unknown as Write;
  const realWriteSync = fs.writeSync as unknown as Write;
  jest.spyOn(fs, 'write').mockImplementation(((fd: number, data: unknown, ...rest: unknown[]) => {
    if (fd !== 1 && fd !== 2) return realWrite(fd, data, ...rest);
    logged.push(String(data));
    const cb = rest.find((r): r is (e: null, n: number) => void => typeof r === 'function');
    const n = typeof data === 'string' ? Buffer.byteLength(data) : (data as Buffer).length;
    if (cb) process.nextTick(() => cb(null, n));
  }) as unknown as typeof fs.write);
  jest.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: unknown, ...rest: unknown[]) => {
    if (fd !== 1 && fd !== 2) return realWriteSync(fd, data, ...rest);
    logged.push(String(data));
    return typeof data === 'string' ? Buffer.byteLength(data) : (data as Buffer).length;
  }) as unknown as typeof fs.writeSync);
  return logged;
}

export interface WebhookSuite {
  s: Stack;
  t: TestApp;
  admin: string;
  cashier: string;
  receiver: WebhookReceiver;
  beverage: number;
}

/** A receiver, the app (and worker) with FAST settings, two users, and the cashier's open session. */
export async function bootWebhooks(): Promise<WebhookSuite> {
  const receiver = await new WebhookReceiver().start();
  const s = await startStack(FAST);
  const t = s.t;
  const admin = await login(t, DEMO.admin);
  const cashier = await login(t, DEMO.cashier);
  const beverage = Number((await t.db.query("SELECT id FROM items WHERE sku = 'BEV-001'"))[0].id);
  const opened = await request(t.http).post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 50 });
  expect(opened.status).toBe(200);
  return { s, t, admin, cashier, receiver, beverage };
}

/**
 * Requests over the suite's app; every endpoint secret created through `endpointFor` goes into
 * `secrets`. `suite` is read at call time: the suite's variables are set in its beforeAll.
 */
export function webhookTools(suite: () => Omit<WebhookSuite, 's'>, secrets: string[]) {
  let saleN = 0;
  const api = () => request(suite().t.http);
  const create = (body: Record<string, unknown>, token = suite().admin) => api().post('/api/v1/webhooks').set(bearer(token)).send(body);
  const endpointFor = async (path: string, events: string[] = ['*'], extra: Record<string, unknown> = {}) => {
    const res = await create({ url: suite().receiver.url(path), events, description: `receiver ${path}`, ...extra });
    expect(res.status).toBe(201);
    secrets.push(res.body.data.secret);
    return res.body.data as { id: number; secret: string };
  };
  const deliveries = async (endpointId: number, query = '') =>
    (await api().get(`/api/v1/webhooks/${endpointId}/deliveries${query}`).set(bearer(suite().admin))).body as {
      data: { id: string; status: string; attempts: number; event: string; last_status_code: number | null; last_error: string | null }[];
      meta: { total: number };
    };
  const detail = async (endpointId: number, delivery: string) =>
    (await api().get(`/api/v1/webhooks/${endpointId}/deliveries/${delivery}`).set(bearer(suite().admin))).body.data;
  const sell = () =>
    api()
      .post('/api/v1/pos/checkout')
      .set(bearer(suite().cashier))
      .send({
        store_id: 1,
        idempotency_key: `wh-sale-${++saleN}-${Date.now()}`,
        items: [{ id: suite().beverage, qty: 1 }],
        payments: [{ payment_method_code: 'cash', amount: 2 }],
        total_amount: 1.32,
      });
  return { api, create, endpointFor, deliveries, detail, sell };
}
