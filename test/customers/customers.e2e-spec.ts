import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

describe('Customers', () => {
  let t: TestApp;
  let admin: string;
  let cashier: string;
  let manager: string;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    [admin, cashier, manager] = [await login(t, DEMO.admin), await login(t, DEMO.cashier), await login(t, DEMO.manager)];
  });
  afterAll(() => t.close());

  it('creates a customer with 201 and writes customer.created to the outbox', async () => {
    const [members] = await t.db.query("SELECT id FROM customer_groups WHERE code = 'members'");
    const res = await api().post('/api/v1/customers').set(bearer(cashier)).send({
      name: '  Bob Builder ',
      email: 'Bob@Example.com',
      phone: '+1 (555) 010-9999',
      address: '1 Site Road',
      customer_group_id: members.id,
      store_id: 1,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Bob Builder',
      email: 'bob@example.com',
      phone: '+1 (555) 010-9999',
      customer_group: { id: members.id, code: 'members' },
      store_id: 1,
      status: 'active',
      is_walk_in: false,
      payment_terms_days: 30,
    });
    const events = await t.db.query("SELECT payload FROM outbox_events WHERE type = 'customer.created'");
    expect(events.some((e: { payload: string }) => JSON.parse(e.payload).customer.id === res.body.data.id)).toBe(true);
  });

  it('validates name (required), email, phone, group and unique email with 422', async () => {
    const missing = await api().post('/api/v1/customers').set(bearer(cashier)).send({ email: 'x@example.com' });
    expectErrorEnvelope(missing, 422, 'The given data was invalid.');
    expect(missing.body.errors.name).toEqual(['The name field is required.']);

    const bad = await api()
      .post('/api/v1/customers')
      .set(bearer(cashier))
      .send({ name: 'X', email: 'not-an-email', phone: 'call me', customer_group_id: 99999 });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'phone']);

    const group = await api().post('/api/v1/customers').set(bearer(cashier)).send({ name: 'X', customer_group_id: 99999 });
    expect(group.status).toBe(422);
    expect(group.body.errors.customer_group_id).toBeDefined();

    const dup = await api().post('/api/v1/customers').set(bearer(cashier)).send({ name: 'Jane Again', email: 'JANE.DOE@example.com' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.email).toEqual(['The email has already been taken.']);

    const huge = await api()
      .post('/api/v1/customers')
      .set(bearer(cashier))
      .send({ name: 'x'.repeat(10_000), payment_terms_days: -1, status: 'vip' });
    expect(huge.status).toBe(422);
    expect(Object.keys(huge.body.errors).sort()).toEqual(['name', 'payment_terms_days', 'status']);
  });

  it('refuses a home store the user does not have (403) and creation without customers.manage (403)', async () => {
    expectErrorEnvelope(await api().post('/api/v1/customers').set(bearer(cashier)).send({ name: 'Far Away', store_id: 2 }), 403);
    const { token } = await integrationToken(t, ['customers.view']);
    expectErrorEnvelope(await api().post('/api/v1/customers').set(bearer(token)).send({ name: 'Nope' }), 403);
  });

  it('lists with status and q filters, paginated and clamped', async () => {
    await api().post('/api/v1/customers').set(bearer(manager)).send({ name: 'Inactive Ivy', status: 'inactive', phone: '555-777-1234' });
    const all = await api().get('/api/v1/customers?per_page=500').set(bearer(cashier));
    expect(all.status).toBe(200);
    expect(all.body.meta.per_page).toBe(100);
    const inactive = await api().get('/api/v1/customers?status=inactive').set(bearer(cashier));
    expect(inactive.body.data.map((c: { name: string }) => c.name)).toEqual(['Inactive Ivy']);
    const q = await api().get('/api/v1/customers?q=elm street').set(bearer(cashier));
    expect(q.body.data.map((c: { name: string }) => c.name)).toEqual(['Jane Doe']);
    const legacy = await api().get('/api/v1/customers?search=jane').set(bearer(cashier));
    expect(legacy.body.data.map((c: { name: string }) => c.name)).toEqual(['Jane Doe']);
    const page = await api().get('/api/v1/customers?per_page=1&page=2').set(bearer(cashier));
    expect(page.body.meta).toMatchObject({ current_page: 2, per_page: 1 });
    expect(page.body.data).toHaveLength(1);
    expectErrorEnvelope(await api().get('/api/v1/customers?status=vip').set(bearer(cashier)), 422);
    expectErrorEnvelope(await api().get('/api/v1/customers?per_page=0').set(bearer(cashier)), 422);
  });

  it('searches name, phone, email and address; exact email first; LIKE wildcards are literal', async () => {
    for (const [q, name] of [
      ['Jane', 'Jane Doe'],
      ['0142', 'Jane Doe'],
      ['jane.doe@example.com', 'Jane Doe'],
      ['Elm', 'Jane Doe'],
      ['777-1234', 'Inactive Ivy'],
    ]) {
      const res = await api()
        .get(`/api/v1/customers/search?q=${encodeURIComponent(q)}`)
        .set(bearer(cashier));
      expect(res.status).toBe(200);
      expect(res.body.data[0].name).toBe(name);
    }
    const wildcard = await api().get('/api/v1/customers/search?q=%25').set(bearer(cashier));
    expect(wildcard.status).toBe(200);
    expect(wildcard.body.data).toEqual([]);
    expectErrorEnvelope(await api().get('/api/v1/customers/search').set(bearer(cashier)), 422);
    expectErrorEnvelope(await api().get('/api/v1/customers/search?q=a&limit=1000').set(bearer(cashier)), 422);
  });

  it('shows, updates (customer.updated) and 404s unknown or malformed ids', async () => {
    const [jane] = await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'");
    const shown = await api().get(`/api/v1/customers/${jane.id}`).set(bearer(cashier));
    expect(shown.body.data).toMatchObject({ id: jane.id, name: 'Jane Doe', customer_group: { code: 'members' } });
    const updated = await api().put(`/api/v1/customers/${jane.id}`).set(bearer(cashier)).send({ phone: '+1 555 0199', notes: 'Prefers email receipts' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Jane Doe', phone: '+1 555 0199', notes: 'Prefers email receipts' });
    expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'customer.updated'"))[0].n)).toBeGreaterThan(0);
    for (const id of ['999999', 'abc', "1' OR '1'='1"])
      expectErrorEnvelope(
        await api()
          .get(`/api/v1/customers/${encodeURIComponent(id)}`)
          .set(bearer(cashier)),
        404,
      );
    expectErrorEnvelope(await api().put('/api/v1/customers/999999').set(bearer(cashier)).send({ name: 'x' }), 404);
    expectErrorEnvelope(await api().put(`/api/v1/customers/${jane.id}`).set(bearer(cashier)).send({ email: 'bad' }), 422);
  });

  it('deletes by anonymising: the row stays for past sales, personal data is gone, a tombstone is left', async () => {
    const created = await api()
      .post('/api/v1/customers')
      .set(bearer(cashier))
      .send({ name: 'Temp Tina', email: 'tina@example.com', phone: '555 123 4567', address: '9 Gone Lane' });
    const id = created.body.data.id;
    const del = await api().delete(`/api/v1/customers/${id}`).set(bearer(cashier));
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true, message: 'Customer deleted.' });
    expectErrorEnvelope(await api().get(`/api/v1/customers/${id}`).set(bearer(cashier)), 404);
    const [row] = await t.db.query('SELECT name, email, phone, address, deleted_at FROM customers WHERE id = ?', [id]);
    expect(row).toMatchObject({ name: `Deleted customer #${id}`, email: null, phone: null, address: null });
    expect(row.deleted_at).not.toBeNull();
    expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM tombstones WHERE entity = 'customer' AND entity_id = ?", [id]))[0].n)).toBe(1);
    // the email is free again
    expect((await api().post('/api/v1/customers').set(bearer(cashier)).send({ name: 'Tina 2', email: 'tina@example.com' })).status).toBe(201);
    expectErrorEnvelope(await api().delete(`/api/v1/customers/${id}`).set(bearer(cashier)), 404);
    const [walkIn] = await t.db.query('SELECT id FROM customers WHERE is_walk_in = 1');
    expectErrorEnvelope(await api().delete(`/api/v1/customers/${walkIn.id}`).set(bearer(admin)), 409);
  });

  it('refuses (409 customer_has_balance) to delete a customer who still owes on an invoice, until it is paid', async () => {
    const id = (await api().post('/api/v1/customers').set(bearer(cashier)).send({ name: 'Owing Olive' }).expect(201)).body.data.id;
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
    const sale = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: 'owing-olive',
        customer_id: id,
        items: [{ id: 1, qty: 1 }],
        payments: [{ payment_method_code: 'on_account', amount: 1.32 }],
        total_amount: 1.32,
      });
    expect(sale.status).toBe(201);
    const refused = await api().delete(`/api/v1/customers/${id}`).set(bearer(cashier));
    expectErrorEnvelope(refused, 409);
    expect(refused.body.code).toBe('customer_has_balance');
    expect((await api().get(`/api/v1/customers/${id}`).set(bearer(cashier))).body.data.name).toBe('Owing Olive');

    await api()
      .post(`/api/v1/invoices/${sale.body.data.invoice.id}/payments`)
      .set(bearer(manager))
      .send({ payment_method_code: 'cash', amount: 1.32 })
      .expect(201);
    expect((await api().delete(`/api/v1/customers/${id}`).set(bearer(cashier))).status).toBe(200);
  });

  it("keeps the walk-in customer's pricing (no tax exemption, its group) (422): it is every anonymous sale", async () => {
    const [walkIn] = await t.db.query('SELECT id, customer_group_id FROM customers WHERE is_walk_in = 1');
    const [members] = await t.db.query("SELECT id FROM customer_groups WHERE code = 'members'");
    const put = (body: object) => api().put(`/api/v1/customers/${walkIn.id}`).set(bearer(cashier)).send(body);
    const exempt = await put({ tax_exempt: true });
    expectErrorEnvelope(exempt, 422);
    expect(Object.keys(exempt.body.errors)).toEqual(['tax_exempt']);
    expectErrorEnvelope(await put({ customer_group_id: members.id }), 422);
    const shown = (await api().get(`/api/v1/customers/${walkIn.id}`).set(bearer(cashier))).body.data;
    expect([shown.tax_exempt, shown.customer_group?.id ?? null]).toEqual([false, walkIn.customer_group_id]);
    expect((await put({ notes: 'Counter sales', tax_exempt: false })).status).toBe(200); // other fields as before
  });

  it('manages customer groups', async () => {
    const list = await api().get('/api/v1/customer-groups').set(bearer(cashier));
    expect(list.body.data.map((g: { code: string }) => g.code).sort()).toEqual(['members', 'retail']);
    const created = await api().post('/api/v1/customer-groups').set(bearer(manager)).send({ name: 'Wholesale', code: 'wholesale' });
    expect(created.status).toBe(201);
    expect((await api().post('/api/v1/customer-groups').set(bearer(manager)).send({ name: 'Again', code: 'wholesale' })).status).toBe(422);
  });

  it('feeds customers to integrations without the walk-in customer by default', async () => {
    const { token } = await integrationToken(t, ['customers.view']);
    const feed = await api().get('/api/v1/integration/data/customers').set(bearer(token));
    expect(feed.status).toBe(200);
    expect(feed.body.data.some((c: { is_walk_in: boolean }) => c.is_walk_in)).toBe(false);
    const withWalkIn = await api().get('/api/v1/integrations/data/customers?exclude_walk_in=false').set(bearer(token));
    expect(withWalkIn.body.data.some((c: { is_walk_in: boolean }) => c.is_walk_in)).toBe(true);
    expect(withWalkIn.body.meta.total).toBe(feed.body.meta.total + 1);
    const one = await api().get(`/api/v1/integration/data/customers/${feed.body.data[0].id}`).set(bearer(token));
    expect(one.status).toBe(200);
    expectErrorEnvelope(await api().get('/api/v1/integration/data/customers').set(bearer(cashier)), 403);
    expectErrorEnvelope(await api().get('/api/v1/integration/data/customers?exclude_walk_in=maybe').set(bearer(token)), 422);
  });
});
