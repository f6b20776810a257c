import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/** Problems found while fuzzing beyond the list (README "Hardening" lists them). */
describe('Hardening: found beyond the issue list', () => {
  let t: TestApp;
  let admin: string;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
  });
  afterAll(() => t.close());

  it('a date that is past 9999-12-31 in UTC (valid_from "9999-12-31T23:00:00-05:00") is 422, not a 500 on MySQL', async () => {
    for (const date of ['9999-12-31T23:00:00-05:00', '0999-12-31']) {
      const rule = await api().post('/api/v1/pricing-rules').set(bearer(admin)).send({ name: 'Far', kind: 'percent_off', percent_off: 5, valid_from: date });
      expectErrorEnvelope(rule, 422);
      expect(rule.body.errors.valid_from[0]).toMatch(/between 1000-01-01 and 9999-12-31/);
      const bundle = await api()
        .post('/api/v1/bundles')
        .set(bearer(admin))
        .send({ name: 'Far', code: `FAR${date.length}`, price: 1, items: [{ item_id: 1, quantity: 1 }], valid_to: date });
      expectErrorEnvelope(bundle, 422);
    }
    expect(
      (await api().post('/api/v1/pricing-rules').set(bearer(admin)).send({ name: 'Near', kind: 'percent_off', percent_off: 5, valid_to: '9999-12-31' })).status,
    ).toBe(200);
  });

  it('GET /sales/{unknown}/receipt?format=text answers 404 in the JSON envelope (was text/plain)', async () => {
    const res = await api().get('/api/v1/sales/999999/receipt?format=text').set(bearer(admin));
    expectErrorEnvelope(res, 404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('a malformed percent-encoding in the path is 400 in the envelope, and documented', async () => {
    const res = await api().get('/api/v1/stores/%E0%A4%A').set(bearer(admin));
    expectErrorEnvelope(res, 400);
    const doc = (await api().get('/api/docs-json')).body;
    expect(doc.paths['/api/v1/stores/{store}'].get.responses['400']).toBeDefined();
  });
});
