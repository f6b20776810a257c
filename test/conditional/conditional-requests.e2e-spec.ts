import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 26 item 4: ETag / If-None-Match (304) on GETs of records and pages, and If-Match (or a
 * body `version`) on the PUT of items, customers and pricing rules (412 on a stale write).
 */
describe('Conditional requests', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  const api = () => request(t.http);
  const VERSIONED = /^W\/"v(\d+)-[0-9a-f]{40}"$/;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    manager = await login(t, DEMO.manager);
  });
  afterAll(() => t.close());

  let seq = 0;
  async function newItem(): Promise<number> {
    seq++;
    const res = await api()
      .post('/api/v1/items')
      .set(bearer(admin))
      .send({ sku: `COND-${seq}-${Date.now()}`, name: `Conditional ${seq}`, base_price: 10 });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  }

  describe('reads: ETag, If-None-Match, Cache-Control', () => {
    it('a record: W/"v<version>-<hash>", private no-cache; 304 with no body while unchanged, 200 after a change', async () => {
      const id = await newItem();
      const first = await api().get(`/api/v1/items/${id}`).set(bearer(admin));
      expect(first.status).toBe(200);
      expect(first.body.data.version).toBe(1);
      expect(first.headers.etag).toMatch(VERSIONED);
      expect(VERSIONED.exec(first.headers.etag)![1]).toBe('1');
      expect(first.headers['cache-control']).toBe('private, no-cache');

      const again = await api().get(`/api/v1/items/${id}`).set(bearer(admin)).set('If-None-Match', first.headers.etag);
      expect(again.status).toBe(304);
      expect(again.text ?? '').toBe('');
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['cache-control']).toBe('private, no-cache');
      // HEAD revalidates the same way; a tag among others matches too.
      expect((await api().head(`/api/v1/items/${id}`).set(bearer(admin)).set('If-None-Match', first.headers.etag)).status).toBe(304);
      expect((await api().get(`/api/v1/items/${id}`).set(bearer(admin)).set('If-None-Match', `W/"nope", ${first.headers.etag}`)).status).toBe(304);

      const put = await api().put(`/api/v1/items/${id}`).set(bearer(admin)).send({ name: 'Conditional renamed' });
      expect(put.status).toBe(200);
      expect(put.body.data.version).toBe(2);
      expect(VERSIONED.exec(put.headers.etag)?.[1]).toBe('2');
      expect(put.headers['cache-control']).toBe('no-store');

      const changed = await api().get(`/api/v1/items/${id}`).set(bearer(admin)).set('If-None-Match', first.headers.etag);
      expect(changed.status).toBe(200);
      expect(changed.body.data.name).toBe('Conditional renamed');
      expect(changed.headers.etag).not.toBe(first.headers.etag);
      expect(changed.headers.etag).toBe(put.headers.etag);
    });

    it('a change the version does not count (stock) still changes the tag: the hash covers the whole answer', async () => {
      const id = await newItem();
      const before = await api().get(`/api/v1/items/${id}`).set(bearer(admin));
      const adjust = await api()
        .post('/api/v1/inventory/adjustments')
        .set(bearer(admin))
        .send({ type: 'receive', warehouse_id: 1, items: [{ item_id: id, quantity: 3 }] });
      expect(adjust.status).toBe(201);
      const after = await api().get(`/api/v1/items/${id}`).set(bearer(admin)).set('If-None-Match', before.headers.etag);
      expect(after.status).toBe(200);
      expect(after.body.data.version).toBe(1);
      expect(after.headers.etag).not.toBe(before.headers.etag);
    });

    it('a list page and an integration feed page: W/"<hash>", 304 while unchanged, 200 after a change', async () => {
      const id = await newItem();
      const list = await api().get('/api/v1/items?per_page=100').set(bearer(admin));
      expect(list.status).toBe(200);
      expect(list.headers.etag).toMatch(/^W\/"[0-9a-f]{40}"$/);
      expect(list.headers['cache-control']).toBe('private, no-cache');
      expect((await api().get('/api/v1/items?per_page=100').set(bearer(admin)).set('If-None-Match', list.headers.etag)).status).toBe(304);

      const { token } = await integrationToken(t, ['items.view', 'customers.view']);
      const feed = await api().get('/api/v1/integration/data/items?per_page=100').set(bearer(token));
      expect(feed.status).toBe(200);
      expect(feed.headers['cache-control']).toBe('private, no-cache');
      const revalidated = await api().get('/api/v1/integration/data/items?per_page=100').set(bearer(token)).set('If-None-Match', feed.headers.etag);
      expect(revalidated.status).toBe(304);

      await api()
        .put(`/api/v1/items/${id}`)
        .set(bearer(admin))
        .send({ name: `Conditional list ${id}` });
      expect((await api().get('/api/v1/items?per_page=100').set(bearer(admin)).set('If-None-Match', list.headers.etag)).status).toBe(200);
      const after = await api().get('/api/v1/integration/data/items?per_page=100').set(bearer(token)).set('If-None-Match', feed.headers.etag);
      expect(after.status).toBe(200);
      expect(after.headers.etag).not.toBe(feed.headers.etag);
    });

    it('auth, tokens, webhooks and errors stay no-store with no ETag', async () => {
      const me = await api().get('/api/v1/auth/me').set(bearer(admin));
      const hooks = await api().get('/api/v1/webhooks').set(bearer(admin));
      const apps = await api().get('/api/v1/api-applications').set(bearer(admin));
      const missing = await api().get('/api/v1/items/99999999').set(bearer(admin));
      expect(missing.status).toBe(404);
      for (const res of [me, hooks, apps, missing]) {
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers.etag).toBeUndefined();
      }
      // A request that asks for a fresh answer (no-cache) gets one, tag or not.
      const item = await api().get('/api/v1/items/1').set(bearer(admin));
      const fresh = await api().get('/api/v1/items/1').set(bearer(admin)).set('If-None-Match', item.headers.etag).set('Cache-Control', 'no-cache');
      expect(fresh.status).toBe(200);
    });
  });

  describe('writes: If-Match and body version', () => {
    it('a stale If-Match is 412 precondition_failed and writes nothing; the current one (or *) writes', async () => {
      const id = await newItem();
      const v1 = (await api().get(`/api/v1/items/${id}`).set(bearer(admin))).headers.etag;
      const v2 = await api().put(`/api/v1/items/${id}`).set(bearer(admin)).set('If-Match', v1).send({ name: 'Second' });
      expect(v2.status).toBe(200);
      expect(v2.body.data.version).toBe(2);

      const stale = await api().put(`/api/v1/items/${id}`).set(bearer(manager)).set('If-Match', v1).send({ name: 'Lost', base_price: 99 });
      expectErrorEnvelope(stale, 412);
      expect(stale.body.code).toBe('precondition_failed');
      expect(stale.body.current_version).toBe(2);
      const now = await api().get(`/api/v1/items/${id}`).set(bearer(admin));
      expect(now.body.data).toMatchObject({ name: 'Second', base_price: 10, version: 2 });
      const [history] = await t.db.query('SELECT COUNT(*) AS n FROM item_price_changes WHERE item_id = ? AND new_price = 9900', [id]);
      expect(Number(history.n)).toBe(0);

      // The tag of the PUT's answer, a bare "2", a list holding it, or *: all name the current version.
      const v3 = await api().put(`/api/v1/items/${id}`).set(bearer(admin)).set('If-Match', v2.headers.etag).send({ name: 'Third' });
      expect(v3.body.data.version).toBe(3);
      expect((await api().put(`/api/v1/items/${id}`).set(bearer(admin)).set('If-Match', '"3"').send({ cost: 1 })).body.data.version).toBe(4);
      expect((await api().put(`/api/v1/items/${id}`).set(bearer(admin)).set('If-Match', `"1", W/"v4-x"`).send({ cost: 2 })).body.data.version).toBe(5);
      expect((await api().put(`/api/v1/items/${id}`).set(bearer(admin)).set('If-Match', '*').send({ cost: 3 })).body.data.version).toBe(6);
      // A well-formed tag that names no version (a list page's tag) can never match.
      expectErrorEnvelope(await api().put(`/api/v1/items/${id}`).set(bearer(admin)).set('If-Match', '"abc"').send({ cost: 4 }), 412);
    });

    it('the body version works as If-Match; without either the last write wins as before', async () => {
      const id = await newItem();
      expect((await api().put(`/api/v1/items/${id}`).set(bearer(admin)).send({ name: 'B1', version: 1 })).status).toBe(200);
      const stale = await api().put(`/api/v1/items/${id}`).set(bearer(manager)).send({ name: 'B-lost', version: 1 });
      expectErrorEnvelope(stale, 412);
      // Header and body disagreeing: the record cannot be at both.
      expectErrorEnvelope(await api().put(`/api/v1/items/${id}`).set(bearer(admin)).set('If-Match', '"2"').send({ name: 'x', version: 1 }), 412);
      expect((await api().put(`/api/v1/items/${id}`).set(bearer(admin)).set('If-Match', '"2"').send({ name: 'B2', version: 2 })).status).toBe(200);
      // No precondition: both writes land, the second wins.
      expect((await api().put(`/api/v1/items/${id}`).set(bearer(admin)).send({ name: 'Free 1' })).status).toBe(200);
      const last = await api().put(`/api/v1/items/${id}`).set(bearer(manager)).send({ name: 'Free 2' });
      expect(last.status).toBe(200);
      expect(last.body.data).toMatchObject({ name: 'Free 2', version: 5 });
    });

    it('a malformed If-Match is 400 invalid_if_match; a bad version is 422; a missing record stays 404', async () => {
      const id = await newItem();
      for (const header of ['1', '"unterminated', 'W/1', '"a" "b"', '']) {
        const res = await api().put(`/api/v1/items/${id}`).set(bearer(admin)).set('If-Match', header).send({ name: 'Never' });
        expectErrorEnvelope(res, 400);
        expect(res.body.code).toBe('invalid_if_match');
      }
      for (const version of ['abc', 1.5, 0, -1, true, [1]]) {
        const res = await api().put(`/api/v1/items/${id}`).set(bearer(admin)).send({ name: 'Never', version });
        expectErrorEnvelope(res, 422);
        expect(Object.keys(res.body.errors)).toEqual(['version']);
      }
      for (const path of ['/api/v1/customers/1', '/api/v1/pricing-rules/1']) {
        const res = await api().put(path).set(bearer(admin)).send({ version: 'x' });
        expectErrorEnvelope(res, 422);
        expect(res.body.errors.version).toBeDefined();
      }
      expect((await api().get(`/api/v1/items/${id}`).set(bearer(admin))).body.data).toMatchObject({ version: 1 });
      expectErrorEnvelope(await api().put('/api/v1/items/99999999').set(bearer(admin)).set('If-Match', '"1"').send({ name: 'x' }), 404);
    });

    it('two back-office users racing a PUT from one version: exactly one 200, one 412 (items, customers, rules)', async () => {
      const item = await newItem();
      const customer = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'Race Customer' });
      expect(customer.status).toBe(201);
      const rule = await api().post('/api/v1/pricing-rules').set(bearer(admin)).send({ name: 'Race rule', kind: 'percent_off', percent_off: 5 });
      expect(rule.status).toBe(200);
      const targets: [string, Record<string, unknown>, Record<string, unknown>][] = [
        [`/api/v1/items/${item}`, { name: 'Race A' }, { name: 'Race B' }],
        [`/api/v1/customers/${customer.body.data.id}`, { notes: 'by admin' }, { notes: 'by manager' }],
        [`/api/v1/pricing-rules/${rule.body.data.id}`, { percent_off: 7 }, { percent_off: 9 }],
      ];
      for (const [path, a, b] of targets) {
        for (let round = 0; round < 3; round++) {
          const read = await api().get(path).set(bearer(admin));
          expect(read.headers.etag).toMatch(VERSIONED);
          const [x, y] = await Promise.all([
            api().put(path).set(bearer(admin)).set('If-Match', read.headers.etag).send(a),
            api().put(path).set(bearer(manager)).set('If-Match', read.headers.etag).send(b),
          ]);
          expect([x.status, y.status].sort()).toEqual([200, 412]);
          const winner = x.status === 200 ? x : y;
          expect(winner.body.data.version).toBe(read.body.data.version + 1);
          const loser = x.status === 412 ? x : y;
          expect(loser.body.code).toBe('precondition_failed');
          const now = await api().get(path).set(bearer(admin));
          expect(now.body.data).toMatchObject({ ...(x.status === 200 ? a : b), version: read.body.data.version + 1 });
        }
      }
    });

    it('customers and pricing rules: version 1 on create, +1 per write, stale writes refused; a rule toggle counts', async () => {
      const c = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'Versioned Customer' });
      expect(c.body.data.version).toBe(1);
      const cid = c.body.data.id as number;
      const got = await api().get(`/api/v1/customers/${cid}`).set(bearer(admin));
      expect(VERSIONED.exec(got.headers.etag)?.[1]).toBe('1');
      expect((await api().get(`/api/v1/customers/${cid}`).set(bearer(admin)).set('If-None-Match', got.headers.etag)).status).toBe(304);
      expect((await api().put(`/api/v1/customers/${cid}`).set(bearer(admin)).send({ phone: '555-0101', version: 1 })).body.data.version).toBe(2);
      expectErrorEnvelope(await api().put(`/api/v1/customers/${cid}`).set(bearer(admin)).set('If-Match', got.headers.etag).send({ phone: '555-0199' }), 412);
      expect((await api().get(`/api/v1/customers/${cid}`).set(bearer(admin))).body.data).toMatchObject({ phone: '555-0101', version: 2 });

      const r = await api().post('/api/v1/pricing-rules').set(bearer(admin)).send({ name: 'Versioned rule', kind: 'percent_off', percent_off: 5 });
      const rid = r.body.data.id as number;
      expect(r.body.data.version).toBe(1);
      expect((await api().post(`/api/v1/pricing-rules/${rid}/toggle`).set(bearer(admin))).body.data.version).toBe(2);
      const stale = await api().put(`/api/v1/pricing-rules/${rid}`).set(bearer(admin)).set('If-Match', '"1"').send({ percent_off: 50 });
      expectErrorEnvelope(stale, 412);
      expect(stale.body.current_version).toBe(2);
      const ok = await api().put(`/api/v1/pricing-rules/${rid}`).set(bearer(admin)).set('If-Match', '"2"').send({ percent_off: 6 });
      expect(ok.body.data).toMatchObject({ percent_off: 6, version: 3 });
    });

    it('other writes of the row move the version on too (item delete, customer delete)', async () => {
      const id = await newItem();
      expect((await api().delete(`/api/v1/items/${id}`).set(bearer(admin))).status).toBe(200);
      expect((await api().get(`/api/v1/items/${id}`).set(bearer(admin))).body.data.version).toBe(2);
      const c = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'Soon gone' });
      expect((await api().delete(`/api/v1/customers/${c.body.data.id}`).set(bearer(admin))).status).toBe(200);
      const [row] = await t.db.query('SELECT version FROM customers WHERE id = ?', [c.body.data.id]);
      expect(Number(row.version)).toBe(2);
    });
  });

  it('OpenAPI documents If-None-Match/304 on record and feed GETs, If-Match/412 on the versioned PUTs', async () => {
    const doc = (await api().get('/api/docs-json')).body as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
    };
    for (const path of ['/api/v1/items/{item}', '/api/v1/items', '/api/v1/customers/{customer}', '/api/v1/integration/data/items']) {
      const get = doc.paths[path].get;
      expect(get.responses['304']).toBeDefined();
      expect(get.parameters?.some((p) => p.in === 'header' && p.name === 'If-None-Match')).toBe(true);
    }
    for (const path of ['/api/v1/items/{item}', '/api/v1/customers/{customer}', '/api/v1/pricing-rules/{pricingRule}']) {
      const put = doc.paths[path].put;
      expect(put.responses['412']).toBeDefined();
      expect(put.parameters?.some((p) => p.in === 'header' && p.name === 'If-Match')).toBe(true);
    }
    expect(doc.paths['/api/v1/auth/me'].get.responses['304']).toBeUndefined();
    expect(doc.paths['/api/v1/webhooks'].get.responses['304']).toBeUndefined();
  });
});
