import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/** A customer's pricing profile carries their tax exemption: carts for an exempt customer carry no tax. */
describe('Customer tax exemption (pricing profile)', () => {
  let t: TestApp;
  let admin: string;
  let colaId: number;
  const api = () => request(t.http);
  const cart = (customerId?: number) =>
    api()
      .post('/api/v1/pricing/cart')
      .set(bearer(admin))
      .send({ store_id: 1, ...(customerId ? { customer_id: customerId } : {}), items: [{ id: colaId, qty: 2 }] });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    colaId = Number((await t.db.query("SELECT id FROM items WHERE sku = 'BEV-003'"))[0].id);
  });
  afterAll(() => t.close());

  it('prices an exempt customer tax free, and follows the customer record when it changes', async () => {
    const created = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'Springfield Charity', tax_exempt: true });
    expect(created.status).toBe(201);
    expect(created.body.data.tax_exempt).toBe(true);
    const id = created.body.data.id;

    const walkIn = await cart();
    expect(walkIn.body.data.tax_total).toBeGreaterThan(0);
    const exempt = await cart(id);
    expect(exempt.status).toBe(200);
    expect(exempt.body.data).toMatchObject({ tax_exempt: true, tax_total: 0, total: walkIn.body.data.subtotal });

    expect((await api().put(`/api/v1/customers/${id}`).set(bearer(admin)).send({ tax_exempt: false })).body.data.tax_exempt).toBe(false);
    expect((await cart(id)).body.data).toMatchObject({ tax_exempt: false, tax_total: walkIn.body.data.tax_total });
  });

  it('refuses a non-boolean tax_exempt with 422', async () => {
    const res = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'X', tax_exempt: 'sometimes' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['tax_exempt']);
  });
});
