import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { sleep } from './sync-helpers';

/**
 * Issue 23 item 8: an offline upload's price is judged against the server's price at
 * offline_created_at (base price then from the price history, books and rules then), not against
 * itself. Below it within the cashier's limits (cashier: 10%, 20.00): accepted and audited; beyond:
 * still recorded (the goods left) but flagged for review, audited, and listed for managers. Items
 * are made here without a tax class (no tax: totals are the prices).
 */
describe('Offline sync: prices judged against the reference then', () => {
  let t: TestApp;
  let worker: INestApplicationContext | undefined;
  let admin: string;
  let manager: string;
  let cashier: string;
  let seq = 0;
  const api = () => request(t.http);
  const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
  const item = async (price: number) => {
    seq += 1;
    const res = await api()
      .post('/api/v1/items')
      .set(bearer(admin))
      .send({ sku: `OFFPRICE-${seq}`, name: `Offline priced ${seq}`, base_price: price });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  };
  const sale = (key: string, at: string, itemId: number, price: number, qty = 1, extra: Record<string, unknown> = {}) => ({
    idempotency_key: key,
    type: 'sale',
    offline_created_at: at,
    data: {
      items: [{ id: itemId, qty, price, ...extra }],
      payments: [{ payment_method_code: 'card', amount: Math.round(price * qty * 100) / 100 }],
      total_amount: Math.round(price * qty * 100) / 100,
    },
  });
  const upload = async (transactions: unknown[]) => {
    const res = await api().post('/api/v1/sync/upload').set(bearer(cashier)).send({ store_id: 1, transactions });
    expect(res.status).toBe(200);
    return res.body.data.results as Record<string, any>[];
  };
  const audits = async (saleId: number) =>
    (
      await api()
        .get('/api/v1/audit-log')
        .query({ action: 'sale.offline_price', target_type: 'sale', target_id: String(saleId) })
        .set(bearer(admin))
        .expect(200)
    ).body.data as { after: Record<string, any> }[];
  const reviewRows = async (saleId: number) =>
    Number(((await t.db.query('SELECT COUNT(*) AS n FROM sale_reviews WHERE sale_id = ?', [saleId])) as { n: unknown }[])[0].n);

  beforeAll(async () => {
    t = await startTestApp();
    // With Redis a bulk price job goes to BullMQ: the worker app consumes it.
    if (t.isMysql) worker = await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false });
    await worker?.init();
    admin = await login(t, DEMO.admin);
    manager = await login(t, DEMO.manager);
    cashier = await login(t, DEMO.cashier);
  });
  afterAll(async () => {
    await worker?.close();
    await t.close();
  });

  it('accepts 0.01 for a 12.49 item sold 29 days ago, flags it for review, audits it and lists it; online the same cart is 403', async () => {
    const id = await item(12.49);
    const penny = sale('penny-29d', daysAgo(29), id, 0.01);
    const [r] = await upload([penny]);
    expect(r).toMatchObject({ status: 'accepted', id: expect.any(Number) });
    expect(r.review).toMatchObject({
      sale_id: r.id,
      receipt_number: r.receipt_number,
      store_id: 1,
      reason: 'offline_price_below_reference',
      status: 'open',
      difference: 12.48,
      lines: [
        {
          line: 0,
          item_id: id,
          quantity: 1,
          unit_price: 0.01,
          amount: 0.01,
          reference_unit_price: 12.49,
          reference_amount: 12.49,
          difference: 12.48,
          decision: 'beyond_limits',
        },
      ],
    });
    const detail = (await api().get(`/api/v1/sales/${r.id}`).set(bearer(admin)).expect(200)).body.data;
    expect(detail).toMatchObject({ total_amount: 0.01, items: [{ unit_price: 0.01, price_source: 'offline' }] });
    const [audit] = await audits(r.id);
    expect(audit.after).toMatchObject({
      minor_units: true,
      review_id: r.review.id,
      lines: [{ item_id: id, unit_price: 1, reference_amount: 1249, difference: 1248, decision: 'beyond_limits', approved_by: null }],
    });

    // the same upload again: a duplicate carrying the same review, no second review or entry
    const [again] = await upload([penny]);
    expect(again).toMatchObject({ status: 'duplicate', id: r.id, review: { id: r.review.id } });
    expect(await reviewRows(r.id)).toBe(1);
    expect(await audits(r.id)).toHaveLength(1);

    // the managers' list
    expectErrorEnvelope(await api().get('/api/v1/sales/reviews').set(bearer(cashier)), 403);
    const open = (await api().get('/api/v1/sales/reviews').query({ status: 'open', store_id: 1 }).set(bearer(manager)).expect(200)).body;
    expect(open.data.map((x: { sale_id: number }) => x.sale_id)).toContain(r.id);
    expect(open.meta).toMatchObject({ current_page: 1 });
    const resolved = await api().post(`/api/v1/sales/reviews/${r.review.id}/resolve`).set(bearer(manager)).send({ note: 'Staff sale, approved by phone' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({
      id: r.review.id,
      status: 'resolved',
      resolution_note: 'Staff sale, approved by phone',
      resolved_at: expect.any(String),
    });
    expectErrorEnvelope(await api().post(`/api/v1/sales/reviews/${r.review.id}/resolve`).set(bearer(manager)).send({ note: 'again' }), 409);
    expectErrorEnvelope(await api().post(`/api/v1/sales/reviews/${r.review.id}/resolve`).set(bearer(manager)).send({}), 422);
    const done = (await api().get('/api/v1/sales/reviews').query({ status: 'resolved' }).set(bearer(manager)).expect(200)).body.data;
    expect(done.find((x: { id: number }) => x.id === r.review.id)).toMatchObject({ resolved_by: expect.any(Number) });
    const stillOpen = (await api().get('/api/v1/sales/reviews').query({ status: 'open' }).set(bearer(manager)).expect(200)).body.data;
    expect(stillOpen.map((x: { id: number }) => x.id)).not.toContain(r.review.id);

    // online, the same cart is a manual price beyond the cashier's limits
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
    const online = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ store_id: 1, idempotency_key: 'penny-online', ...sale('x', daysAgo(0), id, 0.01).data });
    expectErrorEnvelope(online, 403);
    expect(online.body.code).toBe('discount_requires_approval');
  });

  it('accepts the base price in force when the sale was made (changed since) with no flag, and flags that price after the change', async () => {
    const id = await item(10);
    await sleep(1100); // whole seconds on MySQL: the sale is clearly after the item's creation ...
    const soldAt = new Date().toISOString();
    await sleep(1100); // ... and before the price change
    await api().put(`/api/v1/items/${id}`).set(bearer(admin)).send({ base_price: 12.49 }).expect(200);
    await sleep(1100);
    const [before, after] = await upload([sale('old-price-then', soldAt, id, 10), sale('old-price-after', new Date().toISOString(), id, 10)]);
    expect(before).toMatchObject({ status: 'accepted', review: null });
    expect(await audits(before.id)).toHaveLength(0);
    expect(await reviewRows(before.id)).toBe(0);
    // 2.49 off 12.49 (19.9%) is beyond the cashier's 10%: once the price was 12.49, 10.00 is a markdown
    expect(after).toMatchObject({
      status: 'accepted',
      review: { lines: [{ reference_amount: 12.49, amount: 10, difference: 2.49, decision: 'beyond_limits' }] },
    });
  });

  it('takes the price in force then from a bulk price change too', async () => {
    const id = await item(8);
    await sleep(1100);
    const soldAt = new Date().toISOString();
    await sleep(1100);
    const job = await api()
      .post('/api/v1/prices/bulk')
      .set(bearer(manager))
      .send({ changes: [{ item_id: id, price: 11 }] });
    expect(job.status).toBeLessThan(300);
    for (let i = 0; i < 200; i++) {
      const s = (await api().get(`/api/v1/prices/bulk/${job.body.data.job_id}`).set(bearer(manager))).body.data;
      if (s.status === 'completed') break;
      await sleep(100);
    }
    expect((await api().get(`/api/v1/items/${id}`).set(bearer(admin)).expect(200)).body.data.base_price).toBe(11);
    const [then] = await upload([sale('bulk-old-price', soldAt, id, 8)]);
    expect(then).toMatchObject({ status: 'accepted', review: null });
    expect(await audits(then.id)).toHaveLength(0);
  });

  it('accepts a small markdown within the limits with an audit entry and no flag; a bad approval token beyond them is flagged', async () => {
    const id = await item(12.49);
    const [small, big] = await upload([
      sale('small-markdown', daysAgo(1), id, 11.99),
      sale('bad-token', daysAgo(1), id, 5, 1, { discount_approval_token: 'not-a-token' }),
    ]);
    expect(small).toMatchObject({ status: 'accepted', review: null });
    expect(await reviewRows(small.id)).toBe(0);
    const [audit] = await audits(small.id);
    // 0.50 off 12.49: 4.00%, within the cashier's 10% and 20.00
    expect(audit.after.lines).toEqual([
      expect.objectContaining({ unit_price: 1199, reference_amount: 1249, difference: 50, percent_bp: 400, decision: 'within_limits' }),
    ]);
    expect(audit.after.review_id).toBeNull();
    expect(big).toMatchObject({ status: 'accepted', review: { lines: [{ difference: 7.49, decision: 'approval_invalid' }] } });
  });

  it('records an offline sale with an explicit discount beyond the limits (the goods left) and flags it, line or cart', async () => {
    const id = await item(40);
    // 40.00 with 50% off the line (20.00: beyond the cashier's 10%), and 40.00 with 25% off the cart
    const lineOff = {
      idempotency_key: 'offline-line-50',
      type: 'sale',
      offline_created_at: daysAgo(1),
      data: {
        items: [{ id, qty: 1, price: 40, discount_type: 'percent', discount_value: 50 }],
        payments: [{ payment_method_code: 'card', amount: 20 }],
        total_amount: 20,
      },
    };
    const cartOff = {
      idempotency_key: 'offline-cart-25',
      type: 'sale',
      offline_created_at: daysAgo(1),
      data: {
        items: [{ id, qty: 1, price: 40 }],
        cart_discount_type: 'percent',
        cart_discount_value: 25,
        cart_discount_approval_token: 'forged',
        payments: [{ payment_method_code: 'card', amount: 30 }],
        total_amount: 30,
      },
    };
    const [line, cart] = await upload([lineOff, cartOff]);
    expect(line).toMatchObject({
      status: 'accepted',
      review: {
        reason: 'offline_discount_beyond_limits',
        difference: 20,
        lines: [{ line: 0, item_id: id, difference: 20, decision: 'line_discount_beyond_limits' }],
      },
    });
    expect(cart).toMatchObject({
      status: 'accepted',
      review: { reason: 'offline_discount_beyond_limits', difference: 10, lines: [{ line: 0, difference: 10, decision: 'cart_discount_approval_invalid' }] },
    });
    for (const r of [line, cart]) {
      expect(await reviewRows(r.id)).toBe(1);
      expect((await audits(r.id))[0].after.discounts_beyond_limits).toHaveLength(1);
    }
    expect((await api().get(`/api/v1/sales/${line.id}`).set(bearer(admin)).expect(200)).body.data).toMatchObject({ total_amount: 20 });
  });

  it('leaves a price at or above the reference alone: no audit entry, no review', async () => {
    const id = await item(3.5);
    const results = await upload([sale('at-reference', daysAgo(2), id, 3.5, 2), sale('above-reference', daysAgo(2), id, 4)]);
    for (const r of results) {
      expect(r).toMatchObject({ status: 'accepted', review: null });
      expect(await audits(r.id)).toHaveLength(0);
    }
  });
});
