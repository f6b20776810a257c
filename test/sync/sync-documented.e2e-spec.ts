import request from 'supertest';
import { OpenApiDoc, Operation, ResponseChecker } from '../support/openapi-fuzz';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * The /sync answers are what the OpenAPI document says, field for field: every page of an
 * initial download and of a delta, an upload with accepted, rejected, duplicate and flagged
 * results, and the status with its rejected transactions are checked against the served
 * document, closed (a field it does not name fails; integers, money steps and percent bounds
 * hold). The schemas are views (apps/api/src/sync/sync.responses.ts) written apart from the
 * code that shapes the answers, so this is what keeps the two together.
 */
describe('Offline sync: answers match the OpenAPI document', () => {
  let t: TestApp;
  let cashier: string;
  let admin: string;
  let doc: OpenApiDoc;
  let checker: ResponseChecker;
  const api = () => request(t.http);
  const op = (path: string, method: 'get' | 'post'): Operation => doc.paths[`/api/v1/sync/${path}`][method]!;
  const problem = (path: string, method: 'get' | 'post', res: request.Response) =>
    checker.check(op(path, method), res.status, res.body, String(res.headers['content-type']));

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier, { device_name: 'Documented Till' });
    admin = await login(t, DEMO.admin);
    doc = (await api().get('/api/docs-json')).body as OpenApiDoc;
    checker = new ResponseChecker(doc);
  });
  afterAll(() => t.close());

  it('documents every sync answer with a named view in the envelope', () => {
    const data = (path: string, method: 'get' | 'post') => op(path, method).responses['200'].content?.['application/json']?.schema?.properties?.data;
    expect([data('initial', 'get'), data('delta', 'get'), data('upload', 'post'), data('status', 'get')]).toEqual([
      { $ref: '#/components/schemas/SyncPage' },
      { $ref: '#/components/schemas/SyncPage' },
      { $ref: '#/components/schemas/SyncUploadReport' },
      { $ref: '#/components/schemas/SyncStatus' },
    ]);
  });

  it('pages an initial download and a delta as documented, and the check refuses an answer that differs', async () => {
    let query: Record<string, string | number> = { store_id: 1, limit: 7 };
    let first: request.Response | undefined;
    let token = '';
    for (let page = 0; page < 200; page++) {
      const res = await api().get('/api/v1/sync/initial').query(query).set(bearer(cashier));
      expect(res.status).toBe(200);
      expect(problem('initial', 'get', res)).toBeNull();
      first ??= res;
      token = res.body.data.sync_token;
      if (res.body.data.complete) break;
      query = { cursor: res.body.data.next_cursor, limit: 7 };
    }
    expect(first!.body.data.reference).not.toBeNull();
    expect(first!.body.data.records.items.length + first!.body.data.records.categories.length).toBeGreaterThan(0);

    // what the check catches: an id that is not an integer, a field the document does not name
    const tampered = (change: (d: Record<string, any>) => void) => {
      const body = JSON.parse(JSON.stringify(first!.body));
      change(body.data);
      return checker.check(op('initial', 'get'), 200, body, 'application/json');
    };
    expect(tampered((d) => (d.store_id = 1.5))).toMatch(/store_id/);
    expect(tampered((d) => (d.reference.store.extra = true))).toMatch(/additional/);

    const customer = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'Documented Delta' });
    await api().delete(`/api/v1/customers/${customer.body.data.id}`).set(bearer(admin)).expect(200);
    const delta = await api().get('/api/v1/sync/delta').query({ since: token, store_id: 1 }).set(bearer(cashier));
    expect(delta.status).toBe(200);
    expect(problem('delta', 'get', delta)).toBeNull();
    expect(delta.body.data.deleted.customers).toContain(customer.body.data.id);
  });

  it('answers an upload and the status as documented: accepted, flagged, rejected and duplicate results', async () => {
    const [cola] = (await t.db.query('SELECT id FROM items WHERE sku = ?', ['BEV-003'])) as { id: number }[];
    const at = new Date(Date.now() - 60_000).toISOString();
    const sale = (key: string, price: number) => ({
      idempotency_key: key,
      type: 'sale',
      offline_created_at: at,
      data: {
        items: [{ id: Number(cola.id), qty: 1, price }],
        payments: [{ payment_method_code: 'cash', amount: 5 }],
        total_amount: Math.round(price * 1.0825 * 100) / 100,
      },
    });
    const transactions = [
      sale('documented-sale', 1.79),
      sale('documented-penny', 0.01),
      { idempotency_key: 'documented-customer', type: 'customer', data: { name: 'Documented Offline' } },
      { idempotency_key: 'documented-junk', type: 'refund', offline_created_at: at, data: {} },
    ];
    const send = () => api().post('/api/v1/sync/upload').set(bearer(cashier)).send({ store_id: 1, transactions });
    const res = await send();
    expect(res.status).toBe(200);
    expect(problem('upload', 'post', res)).toBeNull();
    expect(res.body.data.results.map((r: { status: string }) => r.status)).toEqual(['accepted', 'accepted', 'accepted', 'rejected']);
    expect(res.body.data.results[1].review).not.toBeNull();
    const again = await send();
    expect(problem('upload', 'post', again)).toBeNull();
    expect(again.body.data.duplicate).toBe(4);

    const status = await api().get('/api/v1/sync/status').query({ store_id: 1 }).set(bearer(cashier));
    expect(status.status).toBe(200);
    expect(problem('status', 'get', status)).toBeNull();
    expect(status.body.data.rejected.length).toBeGreaterThan(0);
  });
});
