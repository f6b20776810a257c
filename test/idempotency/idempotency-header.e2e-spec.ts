import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

const RETENTION = String(30 * 86_400);

/**
 * The Idempotency-Key header on the routes that create something (issue 26 item 5): a retry with
 * the same key and request answers the original status and body (Idempotent-Replayed: true) and
 * creates nothing; secrets shown once come back only on a replay and are sealed at rest; checkout
 * takes the header for its body key; the upload (claim mode) replays its whole answer.
 */
describe('Idempotency-Key header: replays on the create routes', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  const api = () => request(t.http);
  const n = async (sql: string, params: unknown[] = []) => Number((await t.db.query(sql, params))[0].n);
  const post = (path: string, token: string, key: string | undefined, body: unknown) => {
    const r = api().post(`/api/v1${path}`).set(bearer(token));
    if (key !== undefined) r.set('Idempotency-Key', key);
    return r.send(body as object);
  };
  /** The second answer is the first one again, marked as a replay; both state the retention. */
  const expectReplay = (first: request.Response, second: request.Response) => {
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotency-key-retention']).toBe(RETENTION);
    expect(second.headers['idempotency-key-retention']).toBe(RETENTION);
  };

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    [admin, manager, cashier] = [await login(t, DEMO.admin), await login(t, DEMO.manager), await login(t, DEMO.cashier)];
  });
  afterAll(() => t.close());

  it('customers, categories and stock adjustments: one row, the same answer again', async () => {
    const c1 = await post('/customers', cashier, 'hdr-customer-1', { name: 'Header Customer', email: 'header.customer@example.com' });
    const c2 = await post('/customers', cashier, 'hdr-customer-1', { name: 'Header Customer', email: 'header.customer@example.com' });
    expect(c1.status).toBe(201);
    expectReplay(c1, c2);
    expect(await n("SELECT COUNT(*) AS n FROM customers WHERE email = 'header.customer@example.com'")).toBe(1);

    const g1 = await post('/categories', manager, 'hdr-category-1', { name: 'Header Shelf' });
    const g2 = await post('/categories', manager, 'hdr-category-1', { name: 'Header Shelf' });
    expect(g1.status).toBe(201);
    expectReplay(g1, g2);
    expect(await n("SELECT COUNT(*) AS n FROM categories WHERE name = 'Header Shelf'")).toBe(1);

    const before = await n('SELECT COUNT(*) AS n FROM stock_movements');
    const adjustment = { type: 'receive', warehouse_id: 1, items: [{ item_id: 1, quantity: 3 }] };
    const a1 = await post('/inventory/adjustments', admin, 'hdr-adjust-1', adjustment);
    const a2 = await post('/inventory/adjustments', admin, 'hdr-adjust-1', adjustment);
    expect(a1.status).toBe(201);
    expectReplay(a1, a2);
    expect(await n('SELECT COUNT(*) AS n FROM stock_movements')).toBe(before + 1);
  });

  it('sessions: a replayed open is the same session (not 409), a replayed cash movement moves nothing more', async () => {
    const o1 = await post('/sessions/open', cashier, 'hdr-open-1', { store_id: 1, opening_balance: 100 });
    const o2 = await post('/sessions/open', cashier, 'hdr-open-1', { store_id: 1, opening_balance: 100 });
    expect(o1.status).toBe(200);
    expectReplay(o1, o2);
    // without a key the second open is refused as before
    expect((await post('/sessions/open', cashier, undefined, { store_id: 1, opening_balance: 100 })).status).toBe(409);
    const id = o1.body.data.id as number;
    const move = { type: 'cash_in', amount: 12.5, reason: 'Float top-up' };
    const m1 = await post(`/sessions/${id}/cash-movement`, cashier, 'hdr-move-1', move);
    const m2 = await post(`/sessions/${id}/cash-movement`, cashier, 'hdr-move-1', move);
    expect(m1.status).toBe(200);
    expectReplay(m1, m2);
    expect(await n('SELECT COUNT(*) AS n FROM cash_movements WHERE session_id = ?', [id])).toBe(1);
  });

  it('webhooks and API tokens: the secret comes back on a replay only, and is sealed at rest', async () => {
    const hook = { url: 'http://127.0.0.1:9/idempotency-hook', events: ['sale.completed'], active: false };
    const w1 = await post('/webhooks', admin, 'hdr-webhook-1', hook);
    const w2 = await post('/webhooks', admin, 'hdr-webhook-1', hook);
    expect(w1.status).toBe(201);
    expect(typeof w1.body.data.secret).toBe('string');
    expectReplay(w1, w2);
    expect(await n("SELECT COUNT(*) AS n FROM webhook_endpoints WHERE url = 'http://127.0.0.1:9/idempotency-hook'")).toBe(1);

    const app = await post('/api-applications', admin, 'hdr-app-1', { name: 'Header app', permissions: ['sales.view'] });
    expect(app.status).toBe(201);
    const tokenBody = { name: 'header token', abilities: ['integration:read'] };
    const k1 = await post(`/api-applications/${app.body.data.id}/tokens`, admin, 'hdr-token-1', tokenBody);
    const k2 = await post(`/api-applications/${app.body.data.id}/tokens`, admin, 'hdr-token-1', tokenBody);
    expect(k1.status).toBe(201);
    expectReplay(k1, k2);
    expect(await n("SELECT COUNT(*) AS n FROM access_tokens WHERE name = 'header token'")).toBe(1);
    // the replayed token is the one that works
    expect((await api().get('/api/v1/integration/sales').set(bearer(k2.body.data.token))).status).not.toBe(401);

    const stored = (await t.db.query("SELECT idem_key, response_body FROM idempotency_keys WHERE idem_key IN ('hdr-webhook-1', 'hdr-token-1')")) as {
      idem_key: string;
      response_body: string;
    }[];
    expect(stored).toHaveLength(2);
    for (const row of stored) {
      expect(row.response_body).not.toContain(w1.body.data.secret);
      expect(row.response_body).not.toContain(k1.body.data.token);
      expect(JSON.parse(row.response_body).data[row.idem_key === 'hdr-token-1' ? 'token' : 'secret']).toMatch(/^v1\./);
    }
  });

  it('checkout: the header stands for the body key; both given and different is 422', async () => {
    // eggs 4.29 + 2% food tax in the Downtown store (the cashier's session is open since the test above)
    const eggs = Number((await t.db.query("SELECT id FROM items WHERE sku = 'GRO-003'"))[0].id);
    const body = { store_id: 1, items: [{ id: eggs, qty: 1 }], payments: [{ payment_method_code: 'card', amount: 4.38 }], total_amount: 4.38 };
    const s1 = await post('/pos/checkout', cashier, 'hdr-sale-1', body);
    expect(s1.status).toBe(201);
    expect(s1.body.data.idempotency_key).toBe('hdr-sale-1');
    expect(s1.headers['idempotency-key-retention']).toBe(RETENTION);
    // the same key in the body only, or in both: the same request
    const s2 = await post('/pos/checkout', cashier, undefined, { ...body, idempotency_key: 'hdr-sale-1' });
    const s3 = await post('/pos/checkout', cashier, 'hdr-sale-1', { ...body, idempotency_key: 'hdr-sale-1' });
    expectReplay(s1, s2);
    expectReplay(s1, s3);
    const clash = await post('/pos/checkout', cashier, 'hdr-sale-2', { ...body, idempotency_key: 'hdr-sale-3' });
    expectErrorEnvelope(clash, 422);
    expect(clash.body.errors.idempotency_key).toEqual([expect.stringContaining('differ')]);
    expect(await n("SELECT COUNT(*) AS n FROM sales WHERE idempotency_key LIKE 'hdr-sale-%'")).toBe(1);
    // the body field's own limit (128) holds for the header on checkout
    expect((await post('/pos/checkout', cashier, 'k'.repeat(129), body)).body.errors?.idempotency_key).toBeDefined();
  });

  it('checkout and returns: a malformed header is 422 on idempotency_key (401 first without a token), nothing created', async () => {
    const eggs = Number((await t.db.query("SELECT id FROM items WHERE sku = 'GRO-003'"))[0].id);
    const body = { store_id: 1, items: [{ id: eggs, qty: 1 }], payments: [{ payment_method_code: 'card', amount: 4.38 }], total_amount: 4.38 };
    const sales = () => n('SELECT COUNT(*) AS n FROM sales');
    const returns = () => n('SELECT COUNT(*) AS n FROM sale_returns');
    const [salesBefore, returnsBefore] = [await sales(), await returns()];
    const bad: [string | string[], string][] = [
      ['', 'must not be empty'],
      ['caf\u00e9', 'printable ASCII'],
      [['hdr-bad-a', 'hdr-bad-b'], 'one Idempotency-Key'],
    ];
    for (const [key, message] of bad) {
      for (const [path, payload] of [
        ['/pos/checkout', body],
        ['/returns', { sale_id: 999_999_999, items: [{ sale_item_id: 1, quantity: 1 }] }],
      ] as const) {
        const res = await api()
          .post(`/api/v1${path}`)
          .set(bearer(cashier))
          .set('Idempotency-Key', key as string)
          .send(payload);
        expectErrorEnvelope(res, 422);
        expect([path, res.body.errors.idempotency_key]).toEqual([path, [expect.stringContaining(message)]]);
      }
    }
    // a body that is not an object: the header is not copied into it; 400 as without the header
    expectErrorEnvelope(await post('/pos/checkout', cashier, 'hdr-array-body', [body]), 400);
    // no token: the access guard answers first, whatever the header
    const anonymous = await api().post('/api/v1/pos/checkout').set('Idempotency-Key', '').send(body);
    expectErrorEnvelope(anonymous, 401);
    // a return of an unknown sale under a well-formed header: the route's own 404
    const unknown = await post('/returns', cashier, 'hdr-return-unknown', { sale_id: 999_999_999, items: [{ sale_item_id: 1, quantity: 1 }] });
    expectErrorEnvelope(unknown, 404);
    expect([await sales(), await returns()]).toEqual([salesBefore, returnsBefore]);
  });

  it('offline upload (claim mode): the whole answer replays, the sale exists once', async () => {
    // The cashier's session opened in the sessions test, maybe a few ms ago: a second ahead (within
    // OFFLINE_CLOCK_SKEW_SECONDS) is after its opening on any machine and any DATETIME rounding.
    const at = new Date(Date.now() + 1000).toISOString();
    const upload = {
      store_id: 1,
      transactions: [
        { idempotency_key: 'hdr-offline-1', type: 'cash_movement', offline_created_at: at, data: { type: 'cash_in', amount: 5, reason: 'Offline float' } },
      ],
    };
    const u1 = await post('/sync/upload', cashier, 'hdr-upload-1', upload);
    const u2 = await post('/sync/upload', cashier, 'hdr-upload-1', upload);
    expect(u1.status).toBe(200);
    expect(u1.body.data.results[0].status).toBe('accepted');
    expectReplay(u1, u2);
    // without the header the upload answers per transaction (its own key): a duplicate now
    const u3 = await post('/sync/upload', cashier, undefined, upload);
    expect(u3.status).toBe(200);
    expect(u3.headers['idempotent-replayed']).toBeUndefined();
    expect(u3.body.data.results[0].status).toBe('duplicate');
    expect(await n("SELECT COUNT(*) AS n FROM cash_movements WHERE reason = 'Offline float'")).toBe(1);
  });

  it('routes without the header behave as before: no key kept, no retention stated', async () => {
    const keys = await n('SELECT COUNT(*) AS n FROM idempotency_keys');
    const a = await post('/customers', cashier, undefined, { name: 'No Key' });
    const b = await post('/customers', cashier, undefined, { name: 'No Key' });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).not.toBe(b.body.data.id);
    expect(a.headers['idempotency-key-retention']).toBeUndefined();
    expect(a.headers['idempotent-replayed']).toBeUndefined();
    expect(await n('SELECT COUNT(*) AS n FROM idempotency_keys')).toBe(keys);
  });
});
