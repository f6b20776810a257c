import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 26: the integration feeds in change mode (`updated_since` once, then `meta.next_cursor`).
 * CHANGE_FEED_SETTLE_SECONDS=5: a change is served once the horizon has passed it, which the
 * tests wait for by polling a bounded number of times (never by asserting a duration). Not less:
 * the transaction age bound is the window less 2 s (at least 0.5 s), and a checkout on a busy
 * machine must fit in it.
 */
const SETTLE = 5;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Row {
  id: number;
  updated_at: string;
  [k: string]: unknown;
}

describe('Integration feeds: change mode', () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  let partner: string;
  let cola: number;
  let start: Date;
  let oldSale: number;
  let customerId: number;
  const api = () => request(t.http);
  let n = 0;
  const sell = async (extra: Record<string, unknown> = {}) => {
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: `feed-${++n}`,
        items: [{ id: cola, qty: 1 }],
        payments: [{ payment_method_code: 'cash', amount: 2 }],
        total_amount: 1.94,
        ...extra,
      });
    if (res.status !== 201) throw new Error(`checkout ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as { id: number; items: { id: number }[]; invoice: { id: number } | null };
  };
  const get = (path: string, query: Record<string, string | number>) => api().get(`/api/v1/integration${path}`).query(query).set(bearer(partner));

  /** One poll of a feed: pages from `position` until has_more is false; returns the rows and the cursor to go on from. */
  async function poll(path: string, position: Record<string, string>, perPage = 2): Promise<{ rows: Row[]; cursor: string }> {
    const rows: Row[] = [];
    let query: Record<string, string | number> = { ...position, per_page: perPage };
    for (let pages = 0; pages < 200; pages++) {
      const res = await get(path, query);
      if (res.status !== 200) throw new Error(`${path} ${JSON.stringify(query)}: ${res.status} ${JSON.stringify(res.body)}`);
      expect(Object.keys(res.body.meta).sort()).toEqual(['has_more', 'next_cursor', 'per_page']);
      expect(res.body.data.length).toBeLessThanOrEqual(perPage);
      if (res.body.meta.has_more) expect(res.body.data).toHaveLength(perPage);
      rows.push(...(res.body.data as Row[]));
      if (!res.body.meta.has_more) return { rows, cursor: res.body.meta.next_cursor as string };
      query = { cursor: res.body.meta.next_cursor as string, per_page: perPage };
    }
    throw new Error('runaway paging');
  }

  /** Polls (bounded) until `done(rows so far)`, following the cursor; every row served, in order. */
  async function pollUntil(path: string, from: string, done: (rows: Row[]) => boolean): Promise<{ rows: Row[]; cursor: string }> {
    const all: Row[] = [];
    let position: Record<string, string> = { updated_since: from };
    for (let i = 0; i < 120; i++) {
      const p = await poll(path, position);
      all.push(...p.rows);
      position = { cursor: p.cursor };
      if (done(all)) return { rows: all, cursor: p.cursor };
      await sleep(250);
    }
    throw new Error(`${path}: not caught up`);
  }

  /** Polls (bounded) from a cursor until `done(rows served since)`. */
  async function followUntil(path: string, cursor: string, done: (rows: Row[]) => boolean): Promise<Row[]> {
    const all: Row[] = [];
    for (let i = 0; i < 120; i++) {
      const p = await poll(path, { cursor });
      all.push(...p.rows);
      cursor = p.cursor;
      if (done(all)) return all;
      await sleep(250);
    }
    throw new Error(`${path}: change not served`);
  }

  const inChangeOrder = (rows: Row[]) =>
    rows.every((r, i) => {
      if (i === 0) return true;
      const [a, b] = [Date.parse(rows[i - 1].updated_at), Date.parse(r.updated_at)];
      return a < b || (a === b && rows[i - 1].id < r.id);
    });

  beforeAll(async () => {
    t = await startTestApp({ CHANGE_FEED_SETTLE_SECONDS: String(SETTLE) });
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    partner = (await integrationToken(t, ['sales.view', 'invoices.view', 'returns.view', 'customers.view', 'items.view', 'reports.sales'])).token;
    cola = Number((await t.db.query("SELECT id FROM items WHERE sku = 'BEV-003'"))[0].id);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }).expect(200);
    oldSale = (await sell()).id;
    customerId = (await api().post('/api/v1/customers').set(bearer(cashier)).send({ name: 'Feed Fran', email: 'fran@example.com' }).expect(201)).body.data.id;
    // the partner starts a whole second after all of that (MySQL keeps whole seconds)
    await sleep(1100);
    start = new Date(Math.floor(Date.now() / 1000) * 1000);
    await sleep(1100);
  });
  afterAll(() => t?.close());

  it('pages sales in (updated_at, id) order; a void, an offline upload and a re-read change each show once in the next poll', async () => {
    const made: number[] = [];
    for (let i = 0; i < 5; i++) made.push((await sell()).id);
    const first = await pollUntil('/sales', start.toISOString(), (rows) => made.every((id) => rows.some((r) => r.id === id)));
    expect(first.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual([...made].sort((a, b) => a - b));
    expect(inChangeOrder(first.rows)).toBe(true);
    expect(first.rows[0]).toMatchObject({ updated_at: expect.any(String), synced_at: null, status: 'completed' });
    expect(first.rows.map((r) => r.id)).not.toContain(oldSale);

    // nothing new: the next poll is empty and echoes its position
    const idle = await get('/sales', { cursor: first.cursor });
    expect(idle.status).toBe(200);
    expect(idle.body.data).toEqual([]);
    expect(idle.body.meta).toEqual({ per_page: 50, next_cursor: first.cursor, has_more: false });

    // a sale already read is voided, an old one too, and an offline sale rung up 20 minutes ago arrives
    await api().post(`/api/v1/sales/${made[1]}/void`).set(bearer(manager)).send({ reason: 'Twice' }).expect(200);
    await api().post(`/api/v1/sales/${oldSale}/void`).set(bearer(manager)).send({ reason: 'Old' }).expect(200);
    const upload = await api()
      .post('/api/v1/sync/upload')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        transactions: [
          {
            idempotency_key: 'feed-offline-1',
            type: 'sale',
            offline_created_at: new Date(Date.now() - 20 * 60_000).toISOString(),
            data: { items: [{ id: cola, qty: 1, price: 1.79 }], payments: [{ payment_method_code: 'cash', amount: 2 }], total_amount: 1.94 },
          },
        ],
      })
      .expect(200);
    const offline = Number(upload.body.data.results[0].id);
    const want = [made[1], oldSale, offline];
    const next = await followUntil('/sales', first.cursor, (rows) => want.every((id) => rows.some((r) => r.id === id)));
    expect(next.map((r) => r.id).sort((a, b) => a - b)).toEqual([...want].sort((a, b) => a - b));
    expect(inChangeOrder(next)).toBe(true);
    const byId = new Map(next.map((r) => [r.id, r]));
    expect(byId.get(made[1])).toMatchObject({ status: 'voided' });
    expect(byId.get(oldSale)).toMatchObject({ status: 'voided' });
    const off = byId.get(offline)!;
    expect(Date.parse(off.created_at as string)).toBeLessThan(start.getTime());
    expect(Date.parse(off.synced_at as string)).toBeGreaterThanOrEqual(start.getTime());
    expect(Date.parse(off.updated_at)).toBeGreaterThanOrEqual(start.getTime());
    // the usual listing is unchanged: page meta, newest first, and the new fields on every row
    const usual = await get('/data/sales', { per_page: 3 });
    expect(usual.status).toBe(200);
    expect(Object.keys(usual.body.meta).sort()).toEqual(['current_page', 'last_page', 'per_page', 'total']);
    expect(usual.body.data[0]).toEqual(expect.objectContaining({ updated_at: expect.any(String), synced_at: null }));
  });

  it('holds back a row stamped after the horizon and applies the other filters', async () => {
    const held = (await sell()).id;
    const future = new Date(Date.now() + 10 * 60_000);
    await t.db.query('UPDATE sales SET updated_at = ? WHERE id = ?', [t.isMysql ? future : future.toISOString().replace('T', ' ').replace('Z', ''), held]);
    const since = new Date(Date.now() - 60 * 60_000).toISOString();
    const all = (await poll('/sales', { updated_since: since }, 50)).rows.map((r) => r.id);
    expect(all).not.toContain(held);
    const usual = await get('/sales', { per_page: 5 });
    expect(usual.body.data.map((r: Row) => r.id)).toContain(held);
    // back to now: served once the horizon has passed it
    await t.db.query('UPDATE sales SET updated_at = created_at WHERE id = ?', [held]);
    await pollUntil('/sales', since, (rows) => rows.some((r) => r.id === held));
    // store_id still filters (no sales in store 2), and a date filter too
    expect((await poll('/sales', { updated_since: since, store_id: '2' })).rows).toEqual([]);
    expect((await get('/data/sales', { updated_since: since, date_from: '2020-01-01', date_to: '2020-01-02' })).body.data).toEqual([]);
  });

  it('serves invoices on payment, returns on each state change, customers on update and deletion, items on update and deletion', async () => {
    const since = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000).toISOString();
    const anonymous = await sell();
    const onAccount = await sell({ customer_id: String(customerId), payments: [{ payment_method_code: 'on_account', amount: 1.94 }] });
    const invoiceId = onAccount.invoice!.id;
    const issued = await pollUntil('/data/invoices', since, (rows) => rows.some((r) => r.id === invoiceId));
    // the sale's other filters apply in change mode: this customer's sales only
    const ofCustomer = await poll('/sales', { updated_since: since, customer_id: String(customerId) });
    expect(ofCustomer.rows.map((r) => r.id)).toEqual([onAccount.id]);
    expect((await poll('/sales', { updated_since: since })).rows.map((r) => r.id)).toEqual(expect.arrayContaining([anonymous.id, onAccount.id]));
    expect(issued.rows.filter((r) => r.id === invoiceId)).toEqual([expect.objectContaining({ status: 'issued', updated_at: expect.any(String) })]);
    await api().post(`/api/v1/invoices/${invoiceId}/payments`).set(bearer(manager)).send({ payment_method_code: 'cash', amount: 1 }).expect(201);
    const paid = await followUntil('/data/invoices', issued.cursor, (rows) => rows.some((r) => r.id === invoiceId));
    expect(paid.filter((r) => r.id === invoiceId)).toEqual([expect.objectContaining({ status: 'partially_paid' })]);

    const sale = await sell();
    const ret = await api()
      .post('/api/v1/returns')
      .set(bearer(manager))
      .send({ sale_id: sale.id, items: [{ sale_item_id: sale.items[0].id, quantity: 1 }] })
      .expect(200);
    const returnId = Number(ret.body.data.id);
    const before = await pollUntil('/data/returns', since, (rows) => rows.some((r) => r.id === returnId));
    expect(before.rows.filter((r) => r.id === returnId)[0]).toMatchObject({ updated_at: expect.any(String) });
    await api().post(`/api/v1/returns/${returnId}/reject`).set(bearer(manager)).send({ notes: 'No receipt' }).expect(200);
    const after = await followUntil('/data/returns', before.cursor, (rows) => rows.some((r) => r.id === returnId));
    expect(after.filter((r) => r.id === returnId)).toEqual([expect.objectContaining({ status: 'rejected' })]);

    await api().put(`/api/v1/customers/${customerId}`).set(bearer(manager)).send({ phone: '+1 555 0100' }).expect(200);
    await pollUntil('/data/customers', since, (rows) => rows.some((r) => r.id === customerId && r.phone === '+1 555 0100'));
    // a customer who still owes is not deleted (409 customer_has_balance): the rest of the invoice is paid first
    await api().post(`/api/v1/invoices/${invoiceId}/payments`).set(bearer(manager)).send({ payment_method_code: 'cash', amount: 0.94 }).expect(201);
    await api().delete(`/api/v1/customers/${customerId}`).set(bearer(manager)).expect(200);
    const gone = await pollUntil('/data/customers', since, (rows) => rows.some((r) => r.id === customerId && r.email === null));
    expect(gone.rows.filter((r) => r.id === customerId).at(-1)!.name).toMatch(/^Deleted customer/);

    await api().put(`/api/v1/items/${cola}`).set(bearer(manager)).send({ description: 'Changed for the feed' }).expect(200);
    await pollUntil('/data/items', since, (rows) => rows.some((r) => r.id === cola && r.description === 'Changed for the feed'));
    const doomed = (await api().post('/api/v1/items').set(bearer(manager)).send({ sku: 'FEED-1', name: 'Feed doomed', base_price: 1 }).expect(201)).body.data
      .id;
    await api().delete(`/api/v1/items/${doomed}`).set(bearer(manager)).expect(200);
    await pollUntil('/data/items', since, (rows) => rows.some((r) => r.id === doomed && r.is_active === false));
  });

  describe('bad input', () => {
    it('refuses a malformed cursor, another feed’s cursor, both parameters and a bad date with 422', async () => {
      const sales = await get('/sales', { updated_since: start.toISOString(), per_page: 1 });
      const cursor = sales.body.meta.next_cursor as string;
      for (const [path, query, field] of [
        ['/sales', { cursor: 'not-a-cursor' }, 'cursor'],
        ['/sales', { cursor: 'abc$' }, 'cursor'],
        ['/data/returns', { cursor }, 'cursor'],
        ['/data/customers', { cursor }, 'cursor'],
        ['/data/invoices', { cursor }, 'cursor'],
        ['/data/items', { cursor }, 'cursor'],
        ['/sales', { cursor, updated_since: start.toISOString() }, 'updated_since'],
        ['/sales', { updated_since: '2026-13-01T00:00:00Z' }, 'updated_since'],
        ['/sales', { updated_since: '2026-02-30T00:00:00Z' }, 'updated_since'],
        ['/sales', { updated_since: '2026-11-26' }, 'updated_since'],
        ['/sales', { updated_since: '2026-11-26T10:00:00' }, 'updated_since'],
        ['/data/items', { updated_since: 'yesterday' }, 'updated_since'],
      ] as const) {
        const res = await get(path, query);
        expectErrorEnvelope(res, 422);
        expect(Object.keys(res.body.errors)).toContain(field);
      }
      // a real instant before 1970 is refused saying why (it read as "not a date-time")
      const early = await get('/sales', { updated_since: '1960-01-01T00:00:00Z' });
      expectErrorEnvelope(early, 422);
      expect(early.body.errors.updated_since[0]).toMatch(/from 1970 to 9999/);
      // the cursor of the sales feed works on its alias
      expect((await api().get('/api/v1/integrations/data/sales').query({ cursor }).set(bearer(partner))).status).toBe(200);
    });

    it('refuses unknown query parameters on every integration route with 422, after authentication', async () => {
      for (const path of [
        '/integration/sales',
        '/integrations/sales',
        `/integration/sales/${oldSale}`,
        '/integration/data/sales',
        '/integration/data/invoices',
        '/integration/data/returns',
        '/integration/data/customers',
        '/integration/data/items',
        '/integration/data/stores',
        '/integrations/data/customers',
        '/integration/reports/sales',
        '/integrations/reports/overview',
      ]) {
        const res = await api().get(`/api/v1${path}`).query({ updated_sinse: '2026-01-01T00:00:00Z' }).set(bearer(partner));
        if (res.status === 403) continue; // a route of a permission this partner lacks: access is decided first
        expectErrorEnvelope(res, 422);
        expect(res.body.errors).toEqual({ updated_sinse: ['Unknown query parameter.'] });
      }
      expect((await api().get('/api/v1/integration/sales').query({ store: '1' })).status).toBe(401);
      // known parameters still pass, on a feed and on a report
      expect((await get('/sales', { store_id: 1, per_page: 1, q: 'x' })).status).toBe(200);
      expect((await get('/reports/sales', { store_id: 1, date_from: '2026-01-01', date_to: '2026-01-31' })).status).toBe(200);
      // staff routes keep ignoring what they do not know
      expect((await api().get('/api/v1/sales').query({ anything: '1' }).set(bearer(manager))).status).toBe(200);
    });
  });
});
