import request from 'supertest';
import { IdempotencyKeyEntity, requestFingerprint } from '@pos/platform';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * The rules of the Idempotency-Key header (issue 26 item 5, decisions.md "Idempotency"): another
 * request under a used key is 422, a malformed key is 422 and changes nothing, a failed request
 * keeps no key, concurrent duplicates create exactly one record (SQLite: transactions take turns;
 * MariaDB: the key's unique index), and the OpenAPI document shows the header on every create.
 */
describe('Idempotency-Key header: the rules', () => {
  let t: TestApp;
  let manager: string;
  let cashier: string;
  const api = () => request(t.http);
  const n = async (sql: string, params: unknown[] = []) => Number((await t.db.query(sql, params))[0].n);
  const customer = (token: string, key: string | string[] | undefined, body: Record<string, unknown>) => {
    const r = api().post('/api/v1/customers').set(bearer(token));
    // An array sends the header twice (supertest types arrays for Cookie only).
    if (key !== undefined) r.set('Idempotency-Key', key as string);
    return r.send(body);
  };
  const customers = (name: string) => n('SELECT COUNT(*) AS n FROM customers WHERE name = ?', [name]);

  beforeAll(async () => {
    t = await startTestApp();
    [manager, cashier] = [await login(t, DEMO.manager), await login(t, DEMO.cashier)];
  });
  afterAll(() => t.close());

  it('the same key with another body, route or user: 422 on idempotency_key, nothing created', async () => {
    expect((await customer(cashier, 'rules-1', { name: 'Rules One' })).status).toBe(201);
    const otherBody = await customer(cashier, 'rules-1', { name: 'Rules Two' });
    expectErrorEnvelope(otherBody, 422);
    expect(otherBody.body.errors.idempotency_key).toEqual(['This idempotency key was already used for a different request.']);
    expect(otherBody.headers['idempotency-key-retention']).toBe(String(30 * 86_400));
    const otherRoute = await api()
      .post('/api/v1/customer-groups')
      .set(bearer(manager))
      .set('Idempotency-Key', 'rules-1')
      .send({ name: 'Rules', code: 'rules' });
    expectErrorEnvelope(otherRoute, 422);
    expect(otherRoute.body.errors.idempotency_key).toBeDefined();
    const otherUser = await customer(manager, 'rules-1', { name: 'Rules One' });
    expectErrorEnvelope(otherUser, 422);
    expect(otherUser.body.errors.idempotency_key).toBeDefined();
    expect(await customers('Rules One')).toBe(1);
    expect(await customers('Rules Two')).toBe(0);
    expect(await n("SELECT COUNT(*) AS n FROM customer_groups WHERE code = 'rules'")).toBe(0);
    // the key's owner still gets the replay
    expect((await customer(cashier, 'rules-1', { name: 'Rules One' })).headers['idempotent-replayed']).toBe('true');
  });

  it('a malformed key is 422 on idempotency_key and creates nothing', async () => {
    const bad: [string | string[], string][] = [
      ['', 'must not be empty'],
      ['k'.repeat(256), 'at most 255'],
      ['caf\u00e9', 'printable ASCII'],
      [['rules-a', 'rules-b'], 'one Idempotency-Key'],
    ];
    for (const [key, message] of bad) {
      const res = await customer(cashier, key, { name: 'Malformed Key' });
      expectErrorEnvelope(res, 422);
      expect(res.body.errors.idempotency_key).toEqual([expect.stringContaining(message)]);
    }
    expect(await customers('Malformed Key')).toBe(0);
    // 255 printable characters, spaces inside included, are a key
    const longest = `${'k'.repeat(127)} ${'~'.repeat(127)}`;
    const first = await customer(cashier, longest, { name: 'Longest Key' });
    const again = await customer(cashier, longest, { name: 'Longest Key' });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await customers('Longest Key')).toBe(1);
  });

  it('a request that fails keeps no key: its retry with the same key runs afresh', async () => {
    const invalid = await customer(cashier, 'rules-fail-1', { email: 'no-name@example.com' });
    expectErrorEnvelope(invalid, 422);
    expect(invalid.body.errors.name).toBeDefined();
    expect(await n("SELECT COUNT(*) AS n FROM idempotency_keys WHERE idem_key = 'rules-fail-1'")).toBe(0);
    const fixed = await customer(cashier, 'rules-fail-1', { name: 'Fixed Later', email: 'no-name@example.com' });
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a claim still in flight is 409 with Retry-After; one left by a dead request is taken over after a minute', async () => {
    const cashierId = Number((await t.db.query('SELECT id FROM users WHERE email = ?', [DEMO.cashier]))[0].id);
    const claim = (key: string, url: string, body: unknown, ageMs: number) =>
      t.db.getRepository(IdempotencyKeyEntity).insert({
        key,
        scope: 'request',
        fingerprint: requestFingerprint({ method: 'POST', url, body }),
        status: 'in_flight',
        responseStatus: null,
        responseBody: null,
        userId: cashierId,
        createdAt: new Date(Date.now() - ageMs),
        completedAt: null,
      });
    // transaction mode (customers) and claim mode (the upload) alike
    const upload = { store_id: 1, transactions: [{ idempotency_key: 'rules-claimed-move', type: 'refund', data: {} }] };
    await claim('rules-claimed-1', '/api/v1/customers', { name: 'Claimed' }, 0);
    await claim('rules-claimed-2', '/api/v1/sync/upload', upload, 0);
    const busy = [
      await customer(cashier, 'rules-claimed-1', { name: 'Claimed' }),
      await api().post('/api/v1/sync/upload').set(bearer(cashier)).set('Idempotency-Key', 'rules-claimed-2').send(upload),
    ];
    for (const res of busy) {
      expectErrorEnvelope(res, 409);
      expect(res.body.code).toBe('idempotency_in_flight');
      expect(res.headers['retry-after']).toBe('1');
    }
    expect(await customers('Claimed')).toBe(0);
    await t.db.query("DELETE FROM idempotency_keys WHERE idem_key = 'rules-claimed-1'");
    await claim('rules-claimed-1', '/api/v1/customers', { name: 'Claimed' }, 2 * 60_000);
    const taken = await customer(cashier, 'rules-claimed-1', { name: 'Claimed' });
    expect(taken.status).toBe(201);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();
    expect(await customers('Claimed')).toBe(1);
    expect((await customer(cashier, 'rules-claimed-1', { name: 'Claimed' })).headers['idempotent-replayed']).toBe('true');
  });

  it('concurrent duplicates: exactly one customer, every answer the first one or 409 with Retry-After', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => customer(cashier, 'rules-race-1', { name: 'Race Customer' })));
    const created = results.filter((r) => r.status === 201);
    const busy = results.filter((r) => r.status === 409);
    expect(created.length + busy.length).toBe(results.length);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.data.id)).size).toBe(1);
    expect(created.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    for (const r of busy) {
      expect(r.body.code).toBe('idempotency_in_flight');
      expect(r.headers['retry-after']).toBeDefined();
    }
    expect(await customers('Race Customer')).toBe(1);
  });

  it('concurrent duplicate uploads (claim mode): one movement, the others replay or 409', async () => {
    const session = await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 });
    expect(session.status).toBe(200);
    const at = new Date().toISOString(); // within the session just opened
    const body = {
      store_id: 1,
      transactions: [
        { idempotency_key: 'rules-race-move', type: 'cash_movement', offline_created_at: at, data: { type: 'cash_in', amount: 3, reason: 'Race float' } },
      ],
    };
    const results = await Promise.all(
      Array.from({ length: 6 }, () => api().post('/api/v1/sync/upload').set(bearer(cashier)).set('Idempotency-Key', 'rules-race-upload').send(body)),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length + results.filter((r) => r.status === 409).length).toBe(results.length);
    expect(ok.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    for (const r of ok) expect(r.body).toEqual(ok[0].body);
    expect(await n("SELECT COUNT(*) AS n FROM cash_movements WHERE reason = 'Race float'")).toBe(1);
  });

  it('OpenAPI: every create documents the shared header, the replay headers and the 409/422 it adds', async () => {
    const doc = (await api().get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { parameters?: { $ref?: string }[]; responses: Record<string, { description: string; headers?: object }> }>>;
      components: { parameters: Record<string, { name: string; in: string }>; headers: Record<string, unknown> };
    };
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header' });
    expect(Object.keys(doc.components.headers)).toEqual(expect.arrayContaining(['IdempotentReplayed', 'IdempotencyKeyRetention']));
    const keyed = (op: { parameters?: { $ref?: string }[] }) => (op.parameters ?? []).some((p) => p.$ref?.startsWith('#/components/parameters/IdempotencyKey'));
    // Not creates: a login (a token for a password, never replayed), a logout, a calculation.
    const notCreates = ['/api/v1/auth/login', '/api/v1/auth/logout', '/api/v1/bundles/calculate'];
    const creates201 = Object.entries(doc.paths).filter(([path, item]) => item.post?.responses['201'] && !notCreates.includes(path));
    expect(creates201.length).toBeGreaterThanOrEqual(12);
    for (const [path, item] of creates201) expect([path, keyed(item.post!)]).toEqual([path, true]);
    // creates that answer 200 (as the contract has them)
    for (const path of [
      '/api/v1/sessions/open',
      '/api/v1/sessions/{session}/cash-movement',
      '/api/v1/returns',
      '/api/v1/sync/upload',
      '/api/v1/pricing-rules',
      '/api/v1/prices/bulk',
    ])
      expect([path, keyed(doc.paths[path].post!)]).toEqual([path, true]);
    const customersOp = doc.paths['/api/v1/customers'].post!;
    expect(Object.keys(customersOp.responses['201'].headers ?? {})).toEqual(expect.arrayContaining(['Idempotent-Replayed', 'Idempotency-Key-Retention']));
    expect(customersOp.responses['409'].description).toContain('Idempotency-Key');
    expect(customersOp.responses['422'].description).toContain('idempotency_key');
    expect(doc.paths['/api/v1/pos/checkout'].post!.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKeyInBody' });
  });
});
