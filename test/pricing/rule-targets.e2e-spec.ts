import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * What a rule or a bundle names must exist when it is named, and only then: an item deleted later
 * never stops a promotion being switched off (before, toggling answered 422 on `item_ids.0`, a
 * field the caller never sent, while the rule went on discounting the other items).
 */
describe('Rule and bundle targets', () => {
  let t: TestApp;
  let manager: string;
  let admin: string;
  const api = () => request(t.http);
  const item = async (sku: string) =>
    (
      await api()
        .post('/api/v1/items')
        .set(bearer(manager))
        .send({ sku, name: `Target ${sku}`, base_price: 2 })
        .expect(201)
    ).body.data.id as number;

  beforeAll(async () => {
    t = await startTestApp();
    manager = await login(t, DEMO.manager);
    admin = await login(t, DEMO.admin);
  });
  afterAll(() => t.close());

  it('switches off and edits a rule and a bundle whose item was deleted since', async () => {
    const [doomed, kept] = [await item('TGT-DOOMED'), await item('TGT-KEPT')];
    const rule = await api()
      .post('/api/v1/pricing-rules')
      .set(bearer(manager))
      .send({ name: 'Both items', kind: 'percent_off', percent_off: 20, item_ids: [doomed, kept] });
    expect(rule.status).toBe(200);
    const bundle = await api()
      .post('/api/v1/bundles')
      .set(bearer(manager))
      .send({
        name: 'Pair',
        code: 'TGT-PAIR',
        price: 3,
        items: [
          { item_id: doomed, quantity: 1 },
          { item_id: kept, quantity: 1 },
        ],
      });
    expect(bundle.status).toBe(201);
    await api().delete(`/api/v1/items/${doomed}`).set(bearer(manager)).expect(200);

    const toggled = await api().post(`/api/v1/pricing-rules/${rule.body.data.id}/toggle`).set(bearer(manager));
    expect(toggled.status).toBe(200);
    expect(toggled.body.data.is_active).toBe(false);
    const renamed = await api().put(`/api/v1/pricing-rules/${rule.body.data.id}`).set(bearer(manager)).send({ name: 'Renamed', is_active: true });
    expect(renamed.status).toBe(200);
    const off = await api().put(`/api/v1/bundles/${bundle.body.data.id}`).set(bearer(manager)).send({ is_active: false });
    expect(off.status).toBe(200);
    expect(off.body.data.is_active).toBe(false);

    // naming a deleted item anew is still refused
    const again = await api()
      .put(`/api/v1/pricing-rules/${rule.body.data.id}`)
      .set(bearer(manager))
      .send({ item_ids: [kept, doomed + 100000] });
    expectErrorEnvelope(again, 422);
    expect(again.body.errors['item_ids.1']).toBeDefined();
  });

  it('refuses unknown stores and customer groups, and two tiers at one quantity (422 naming each)', async () => {
    // The admin has every store; to the manager (two stores) store 999 is another store: 403 (store-scoping.e2e-spec).
    const res = await api()
      .post('/api/v1/pricing-rules')
      .set(bearer(admin))
      .send({
        name: 'Dangling',
        kind: 'quantity_tiers',
        store_ids: [1, 999],
        customer_group_ids: [999],
        tiers: [
          { min_quantity: 2, percent_off: 5 },
          { min_quantity: 2, percent_off: 50 },
        ],
      });
    expectErrorEnvelope(res, 422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['customer_group_ids.0', 'store_ids.1', 'tiers.1.min_quantity']);
  });

  it('takes bundle codes without regard to case, as SKUs are', async () => {
    const kept = await item('TGT-CASE');
    const body = (code: string) => ({ name: code, code, price: 1, items: [{ item_id: kept, quantity: 2 }] });
    expect((await api().post('/api/v1/bundles').set(bearer(manager)).send(body('CASE-PACK'))).status).toBe(201);
    const twin = await api().post('/api/v1/bundles').set(bearer(manager)).send(body('case-pack'));
    expectErrorEnvelope(twin, 422);
    expect(twin.body.errors.code).toBeDefined();
  });
});
