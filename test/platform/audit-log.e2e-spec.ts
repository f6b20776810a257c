import request from 'supertest';
import { TOTP, Secret } from 'otpauth';
import { TransactionHost } from '@nestjs-cls/transactional';
import { AuditLog } from '@pos/platform';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });

interface Row {
  action: string;
  actor_id: number | null;
  store_id: number | null;
  target_type: string;
  target_id: string;
  before: string | null;
  after: string | null;
  request_id: string | null;
}

/**
 * Issue 13, audit log: every sensitive action leaves exactly one entry, in its own transaction
 * (who, store, action, target, before/after, request id); a refused or rolled back action leaves
 * none; GET /audit-log needs audit.view.
 */
describe('Audit log', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  const user: Record<string, number> = {};
  let item: Record<string, number>;
  let seen = 0;
  const api = () => request(t.http);

  /** The entries written since the last call (asserting their count). */
  async function newEntries(expected: number): Promise<Row[]> {
    const rows = (await t.db.query('SELECT * FROM audit_log WHERE id > ? ORDER BY id', [seen])) as (Row & { id: number })[];
    if (rows.length) seen = Number(rows[rows.length - 1].id);
    expect(rows.map((r) => r.action)).toHaveLength(expected);
    return rows;
  }

  async function openSession(token: string) {
    const res = await api().post('/api/v1/sessions/open').set(bearer(token)).send({ store_id: 1, opening_balance: 50 });
    expect(res.status).toBe(200);
    return res.body.data.id as number;
  }

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
    for (const email of [DEMO.admin, DEMO.manager, DEMO.cashier])
      user[email] = Number((await t.db.query('SELECT id FROM users WHERE email = ?', [email]))[0].id);
    item = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
    await newEntries(0);
  });
  afterAll(() => t.close());

  it('records session open and close with the cashier, the store and the discrepancy', async () => {
    const id = await openSession(cashier);
    const [opened] = await newEntries(1);
    expect(opened).toMatchObject({ action: 'session.opened', actor_id: user[DEMO.cashier], store_id: 1, target_type: 'session', target_id: String(id) });
    expect(opened.request_id).toEqual(expect.any(String));
    expect((await api().post(`/api/v1/sessions/${id}/close`).set(bearer(cashier)).send({ closing_balance: 49.5 })).status).toBe(200);
    const [closed] = await newEntries(1);
    expect(closed).toMatchObject({ action: 'session.closed', actor_id: user[DEMO.cashier] });
    expect(JSON.parse(closed.after!)).toMatchObject({ status: 'closed', discrepancy: -0.5 });
  });

  it('records a sale with a manual price, the discount approval behind it, and its void', async () => {
    await openSession(manager);
    await newEntries(1);
    const approval = await api().post('/api/v1/pos/discount/approve').set(bearer(manager)).send({
      approver_email: DEMO.admin,
      pin: '9999',
      item_id: item['HSE-001'],
      discount_type: 'percent',
      discount_value: 60,
      base_amount: 3.49,
      cart_reference: 'audit-sale-1',
    });
    expect(approval.status).toBe(200);
    const [approved] = await newEntries(1);
    expect(approved).toMatchObject({ action: 'discount.approved', actor_id: user[DEMO.manager], store_id: 1, target_type: 'cart', target_id: 'audit-sale-1' });
    expect(approved.after).not.toContain(approval.body.data.approval_token);

    const priced = await api()
      .post('/api/v1/pricing/cart')
      .set(bearer(manager))
      .send({ store_id: 1, items: [{ id: item['HSE-001'], qty: 1, discount_type: 'percent', discount_value: 60 }] });
    const sale = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(manager))
      .send({
        store_id: 1,
        idempotency_key: 'audit-sale-1',
        items: [{ id: item['HSE-001'], qty: 1, discount_type: 'percent', discount_value: 60, discount_approval_token: approval.body.data.approval_token }],
        payments: [{ payment_method_code: 'cash', amount: 100 }],
        total_amount: priced.body.data.total,
      });
    expect(sale.status).toBe(201);
    const [manual] = await newEntries(1);
    expect(manual).toMatchObject({ action: 'sale.manual_pricing', actor_id: user[DEMO.manager], target_type: 'sale', target_id: String(sale.body.data.id) });
    expect(JSON.parse(manual.after!).lines[0]).toMatchObject({ item_id: item['HSE-001'], approved_by: user[DEMO.admin] });

    // A refused void (the cashier lacks sales.void) leaves nothing; the manager's void leaves one entry.
    expectErrorEnvelope(await api().post(`/api/v1/sales/${sale.body.data.id}/void`).set(bearer(cashier)).send({ reason: 'x' }), 403);
    await newEntries(0);
    expect((await api().post(`/api/v1/sales/${sale.body.data.id}/void`).set(bearer(manager)).send({ reason: 'Customer changed mind' })).status).toBe(200);
    const [voided] = await newEntries(1);
    expect(voided).toMatchObject({ action: 'sale.voided', actor_id: user[DEMO.manager], store_id: 1, target_id: String(sale.body.data.id) });
    expect(JSON.parse(voided.before!)).toEqual({ status: 'completed' });
    // Voiding it again is a 409: still one entry.
    expectErrorEnvelope(await api().post(`/api/v1/sales/${sale.body.data.id}/void`).set(bearer(manager)).send({}), 409);
    await newEntries(0);
  });

  it('records pricing rule, bundle, exchange rate, item price and bulk price changes', async () => {
    const rule = await api()
      .post('/api/v1/pricing-rules')
      .set(bearer(manager))
      .send({ name: 'Audit 5%', kind: 'percent_off', percent_off: 5, item_ids: [item['HSE-002']] });
    expect(rule.status).toBe(200);
    expect((await newEntries(1))[0]).toMatchObject({ action: 'pricing_rule.created', actor_id: user[DEMO.manager], target_id: String(rule.body.data.id) });
    expect((await api().put(`/api/v1/pricing-rules/${rule.body.data.id}`).set(bearer(manager)).send({ percent_off: 7 })).status).toBe(200);
    const [updated] = await newEntries(1);
    expect(updated.action).toBe('pricing_rule.updated');
    expect(JSON.parse(updated.before!)).not.toEqual(JSON.parse(updated.after!));
    expectErrorEnvelope(await api().put(`/api/v1/pricing-rules/${rule.body.data.id}`).set(bearer(manager)).send({ kind: 'fixed_price' }), 422);
    await newEntries(0);
    expect((await api().post(`/api/v1/pricing-rules/${rule.body.data.id}/toggle`).set(bearer(manager))).status).toBe(200);
    expect((await newEntries(1))[0].action).toBe('pricing_rule.toggled');
    expect((await api().delete(`/api/v1/pricing-rules/${rule.body.data.id}`).set(bearer(manager))).status).toBe(200);
    expect((await newEntries(1))[0].action).toBe('pricing_rule.deleted');

    const bundle = await api()
      .post('/api/v1/bundles')
      .set(bearer(manager))
      .send({ name: 'Audit pack', code: 'AUDIT-1', price: 3, items: [{ item_id: item['BEV-001'], quantity: 2 }] });
    expect(bundle.status).toBe(201);
    expect((await newEntries(1))[0]).toMatchObject({ action: 'bundle.created', target_type: 'bundle' });

    expect((await api().post('/api/v1/currencies/EUR/rates').set(bearer(manager)).send({ rate: 0.95 })).status).toBeLessThan(300);
    expect((await newEntries(1))[0]).toMatchObject({ action: 'exchange_rate.set', target_type: 'currency', target_id: 'EUR' });

    expect((await api().put(`/api/v1/items/${item['HSE-003']}`).set(bearer(manager)).send({ base_price: 9.99 })).status).toBe(200);
    const [price] = await newEntries(1);
    expect(price).toMatchObject({ action: 'item.price_changed', target_id: String(item['HSE-003']) });
    expect(JSON.parse(price.after!).base_price).toBe(999);
    // A change of the name only is not a price change.
    expect((await api().put(`/api/v1/items/${item['HSE-003']}`).set(bearer(manager)).send({ name: 'Audited item' })).status).toBe(200);
    await newEntries(0);

    expect(
      (
        await api()
          .post('/api/v1/prices/bulk')
          .set(bearer(manager))
          .send({ changes: [{ item_id: item['HSE-004'], price: 4.44 }] })
      ).status,
    ).toBeLessThan(300);
    const bulk = (await t.db.query("SELECT * FROM audit_log WHERE action = 'prices.bulk_submitted'")) as Row[];
    expect(bulk).toHaveLength(1);
    expect(bulk[0].actor_id).toBe(user[DEMO.manager]);
    seen = Number((await t.db.query('SELECT MAX(id) AS m FROM audit_log'))[0].m);
  });

  it('records stock adjustments with their lines', async () => {
    const res = await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(manager))
      .send({ type: 'receive', warehouse_id: 1, items: [{ item_id: item['BEV-002'], quantity: 5 }] });
    expect(res.status).toBe(201);
    const [adjusted] = await newEntries(1);
    expect(adjusted).toMatchObject({ action: 'stock.adjusted', actor_id: user[DEMO.manager], store_id: 1, target_id: res.body.data.adjustment_id });
    expect(JSON.parse(adjusted.after!).lines).toEqual([expect.objectContaining({ item_id: item['BEV-002'], quantity: 5 })]);
    // Over-selling in a write-off is a 409 and leaves no entry.
    expectErrorEnvelope(
      await api()
        .post('/api/v1/inventory/adjustments')
        .set(bearer(manager))
        .send({ type: 'damage', warehouse_id: 1, items: [{ item_id: item['BEV-002'], quantity: 100000 }] }),
      409,
    );
    await newEntries(0);
  });

  it('records application, token, two-factor and webhook endpoint changes', async () => {
    const app = await api()
      .post('/api/v1/api-applications')
      .set(bearer(admin))
      .send({ name: 'Audit app', permissions: ['sales.view'] });
    expect(app.status).toBe(201);
    expect((await newEntries(1))[0]).toMatchObject({ action: 'api_application.created', actor_id: user[DEMO.admin], target_id: String(app.body.data.id) });
    const token = await api()
      .post(`/api/v1/api-applications/${app.body.data.id}/tokens`)
      .set(bearer(admin))
      .send({ name: 'audit', abilities: ['integration:read'] });
    expect(token.status).toBe(201);
    const [issued] = await newEntries(1);
    expect(issued).toMatchObject({ action: 'token.issued', target_id: String(token.body.data.id) });
    expect(issued.after).not.toContain(token.body.data.token);
    expect((await api().delete(`/api/v1/api-applications/${app.body.data.id}/tokens/${token.body.data.id}`).set(bearer(admin))).status).toBe(200);
    expect((await newEntries(1))[0]).toMatchObject({ action: 'token.revoked', target_id: String(token.body.data.id) });

    const enabled = await api().post('/api/v1/auth/two-factor/enable').set(bearer(cashier)).send({ password: DEMO.password });
    expect(enabled.status).toBe(200);
    await newEntries(0); // enrolment starts; 2FA is on only once confirmed
    expect(
      (
        await api()
          .post('/api/v1/auth/two-factor/confirm')
          .set(bearer(cashier))
          .send({ code: totp(enabled.body.data.secret).generate() })
      ).status,
    ).toBe(200);
    expect((await newEntries(1))[0]).toMatchObject({ action: 'two_factor.enabled', actor_id: user[DEMO.cashier], target_id: String(user[DEMO.cashier]) });

    const hook = await api()
      .post('/api/v1/webhooks')
      .set(bearer(admin))
      .send({ url: 'http://127.0.0.1:9/audit', events: ['sale.completed'] });
    expect(hook.status).toBe(201);
    const [created] = await newEntries(1);
    expect(created).toMatchObject({ action: 'webhook_endpoint.created', actor_id: user[DEMO.admin] });
    expect(created.after).not.toContain(hook.body.data.secret);
    expect((await api().put(`/api/v1/webhooks/${hook.body.data.id}`).set(bearer(admin)).send({ description: 'audited' })).status).toBe(200);
    expect((await newEntries(1))[0].action).toBe('webhook_endpoint.updated');
    const rotated = await api().post(`/api/v1/webhooks/${hook.body.data.id}/rotate-secret`).set(bearer(admin));
    expect(rotated.status).toBe(200);
    const [rotation] = await newEntries(1);
    expect(rotation.action).toBe('webhook_endpoint.secret_rotated');
    expect(JSON.stringify(rotation)).not.toContain(rotated.body.data.secret);
    expect((await api().delete(`/api/v1/webhooks/${hook.body.data.id}`).set(bearer(admin))).status).toBe(200);
    expect((await newEntries(1))[0].action).toBe('webhook_endpoint.deleted');
  });

  it('writes entries in the caller transaction: a rolled back action leaves none', async () => {
    const txHost = t.app.get(TransactionHost);
    const audit = t.app.get(AuditLog);
    await expect(
      txHost.withTransaction(async () => {
        await audit.record({ action: 'test.rolled_back', target: { type: 'test', id: 1 } });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await newEntries(0);
  });

  it('serves GET /audit-log to audit.view holders only, with filters', async () => {
    expectErrorEnvelope(await api().get('/api/v1/audit-log').set(bearer(manager)), 403);
    expectErrorEnvelope(await api().get('/api/v1/audit-log').set(bearer(cashier)), 403);
    const all = await api().get('/api/v1/audit-log?per_page=200').set(bearer(admin));
    expect(all.status).toBe(200);
    expect(all.body.meta.total).toBe(Number((await t.db.query('SELECT COUNT(*) AS n FROM audit_log'))[0].n));
    const voids = await api().get('/api/v1/audit-log?action=sale.voided').set(bearer(admin));
    expect(voids.body.data).toEqual([
      expect.objectContaining({
        action: 'sale.voided',
        actor: { id: user[DEMO.manager], name: expect.any(String) },
        store_id: 1,
        target: { type: 'sale', id: expect.any(String) },
      }),
    ]);
    const family = await api().get('/api/v1/audit-log?action=pricing_rule.*').set(bearer(admin));
    expect(family.body.data.map((e: { action: string }) => e.action).sort()).toEqual([
      'pricing_rule.created',
      'pricing_rule.deleted',
      'pricing_rule.toggled',
      'pricing_rule.updated',
    ]);
    const mine = await api().get(`/api/v1/audit-log?user_id=${user[DEMO.cashier]}&store_id=1`).set(bearer(admin));
    expect(mine.body.data.map((e: { action: string }) => e.action).sort()).toEqual(['session.closed', 'session.opened']);
    expectErrorEnvelope(await api().get('/api/v1/audit-log?date_from=yesterday').set(bearer(admin)), 422);
  });
});
