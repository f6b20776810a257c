import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { bearer, DEMO, login } from '../support/test-app';
import { eventually, WebhookReceiver } from './receiver';
import { FAST, Stack, startStack } from './webhook-stack';

/** A receiver that answers nothing until released: a partner whose server hangs. */
class HangingReceiver {
  readonly held: ServerResponse[] = [];
  open = 0;
  mostOpen = 0;
  private released = false;
  private server?: Server;

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        if (this.released) return void res.end('ok');
        this.open++;
        this.mostOpen = Math.max(this.mostOpen, this.open);
        this.held.push(res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hang`;
  }

  release(): void {
    this.released = true;
    for (const res of this.held.splice(0)) {
      this.open--;
      res.end('ok');
    }
  }

  async stop(): Promise<void> {
    this.release();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

/**
 * One slow partner must not stall the others (found by exploring: one pool of WEBHOOK_CONCURRENCY
 * slots for every endpoint, so 200 deliveries to a healthy endpoint took 90 s instead of 5 while
 * another endpoint timed out). With WEBHOOK_ENDPOINT_CONCURRENCY an endpoint holds at most that
 * many slots; its other due deliveries give their lease back, uncounted, and come back later.
 */
describe('Webhook deliveries: one hanging endpoint, one healthy', () => {
  let s: Stack;
  let admin: string;
  let cashier: string;
  let beverage: number;
  const hanging = new HangingReceiver();
  const healthy = new WebhookReceiver();
  const api = () => request(s.t.http);

  beforeAll(async () => {
    await hanging.start();
    await healthy.start();
    s = await startStack({ ...FAST, WEBHOOK_CONCURRENCY: '4', WEBHOOK_ENDPOINT_CONCURRENCY: '2', WEBHOOK_TIMEOUT_MS: '60000' });
    admin = await login(s.t, DEMO.admin);
    cashier = await login(s.t, DEMO.cashier);
    beverage = Number((await s.t.db.query("SELECT id FROM items WHERE sku = 'BEV-001'"))[0].id);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 50 }).expect(200);
  });
  afterAll(async () => {
    await hanging.stop();
    await s?.close();
    await healthy.close();
  });

  it('delivers every event to the healthy endpoint while the hanging one holds only its share; the rest wait, uncounted', async () => {
    const endpoint = async (url: string) =>
      (
        await api()
          .post('/api/v1/webhooks')
          .set(bearer(admin))
          .send({ url, events: ['sale.completed'] })
          .expect(201)
      ).body.data.id as number;
    const slow = await endpoint(hanging.url());
    await endpoint(healthy.url('/ok'));
    const SALES = 6;
    for (let i = 0; i < SALES; i++) {
      await api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send({
          store_id: 1,
          idempotency_key: `fair-${i}`,
          items: [{ id: beverage, qty: 1 }],
          payments: [{ payment_method_code: 'cash', amount: 2 }],
          total_amount: 1.32,
        })
        .expect(201);
    }
    // Before: the hanging endpoint's attempts filled all 4 slots and the healthy one waited.
    await healthy.waitFor('/ok', (got) => got.length >= SALES);
    expect(hanging.mostOpen).toBeLessThanOrEqual(2);

    const list = async () =>
      (await api().get(`/api/v1/webhooks/${slow}/deliveries?per_page=50`).set(bearer(admin))).body.data as {
        id: string;
        status: string;
        attempts: number;
      }[];
    // every delivery to the hanging endpoint is still pending; none has an attempt counted yet
    expect((await list()).map((d) => [d.status, d.attempts])).toEqual(Array(SALES).fill(['pending', 0]));

    hanging.release();
    // the two it held are recorded delivered; the others stay pending, due again later
    const after = await eventually(list, (now) => now.filter((d) => d.status === 'delivered').length >= 2);
    expect(after.filter((d) => d.status === 'failed')).toEqual([]);
    expect(after.filter((d) => d.status === 'delivered').every((d) => d.attempts === 1)).toBe(true);
  });
});
