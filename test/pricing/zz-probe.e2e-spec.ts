import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

describe('probe', () => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(); });
  afterAll(() => t.close());
  it('probes', async () => {
    const m = await login(t, DEMO.manager);
    const c = await login(t, DEMO.cashier);
    const out: unknown[] = [];
    const p = async (label: string, r: request.Test) => { const res = await r; out.push({ label, status: res.status, body: res.body }); return res; };
    const api = () => request(t.http);
    const r1 = await p('rule', api().post('/api/v1/pricing-rules').set(bearer(m)).send({ name: 'Snacks 10', kind: 'percent_off', percent_off: 10, category_ids: [3], valid_from: '2020-01-01', valid_to: '2099-12-31' }));
    await p('upd', api().put(`/api/v1/pricing-rules/${r1.body.data.id}`).set(bearer(m)).send({ percent_off: 20 }));
    await p('rulelist-c2', api().get('/api/v1/pricing-rules?store_id=2').set(bearer(c)));
    await p('cart', api().post('/api/v1/pricing/cart').set(bearer(c)).send({ items: [{ id: 9, qty: 2 }] }));
    await p('eval', api().post('/api/v1/pricing-rules/evaluate').set(bearer(c)).send({ items: [{ id: 9, qty: 2 }] }));
    const b = await p('bundle', api().post('/api/v1/bundles').set(bearer(m)).send({ name: 'AP pack', code: 'AP1', price: 3, store_ids: [2], items: [{ item_id: 9, quantity: 1 }] }));
    await p('blist-c', api().get('/api/v1/bundles').set(bearer(c)));
    await p('bshow-c', api().get(`/api/v1/bundles/${b.body.data.id}`).set(bearer(c)));
    await p('bavail-c', api().get(`/api/v1/bundles/${b.body.data.id}/availability`).set(bearer(c)));
    await p('bcalc', api().post('/api/v1/bundles/calculate').set(bearer(c)).send({ bundle_id: b.body.data.id }));
    await p('appr', api().post('/api/v1/pos/discount/approve').set(bearer(c)).send({ approver_email: DEMO.manager, pin: '1234', discount_type: 'percent', discount_value: 25, cart_reference: 'abc' }));
    console.log(JSON.stringify(out, null, 1));
  });
});
