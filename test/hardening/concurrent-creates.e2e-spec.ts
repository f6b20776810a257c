import request from 'supertest';
import { countQueries } from '../support/query-count';
import { transactionRetries } from '@pos/platform';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoIds } from '../catalog/catalog-helpers';
import { TypeOrmItemRepository } from '../../libs/catalog/src/infrastructure/item.repository';

/**
 * Creates that also write child rows (an item's name index, barcodes and units; a rule's
 * targets; a bundle's components; an application's stores) write them with inserts only. They used to "replace" them:
 * DELETE the new row's children, then INSERT. On MySQL a DELETE that finds nothing locks the gap
 * at the end of the index; every concurrent create holds that same gap, each one's INSERT waits
 * for the others' gap lock, and InnoDB kills all but one as deadlocks. Retried six times, some
 * still lost under load: CI saw 3 of 22 simultaneous item creates answer 500. The DELETE check
 * holds on both databases; the burst checks the outcome (on MySQL it failed without the fix on
 * a loaded machine).
 */
describe('Concurrent creates', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let ids: DemoIds;
  const BURST = 24;

  const api = () => request(t.http);
  const deletesDuring = async (write: () => Promise<request.Response>, status: number) => {
    const counter = countQueries(t.db);
    try {
      const res = await write();
      expect(res.status).toBe(status);
      return counter.statements.filter((q) => /^\s*DELETE\b/i.test(q));
    } finally {
      counter.stop();
    }
  };
  const burst = async (write: (k: number) => Promise<request.Response>) => {
    const made = await Promise.all(Array.from({ length: BURST }, (_, k) => write(k)));
    return made.map((r) => (r.status >= 500 ? `${r.status} ${JSON.stringify(r.body)}` : r.status));
  };

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager)]);
    ids = await demoIds(t);
  });
  afterAll(() => t.close());

  describe('items', () => {
    const item = (k: number | string) => ({
      sku: `CC-${k}`,
      name: `Concurrent Gizmo ${k}`,
      base_price: 1,
      barcodes: [`CC-BC-${k}`],
      units: [{ name: 'case', factor: 6, price: 5, barcode: `CC-CASE-${k}` }],
    });
    const create = (body: Record<string, unknown>) => api().post('/api/v1/items').set(bearer(manager)).send(body);

    it('writes a new item, its name index, barcodes and unit without a DELETE', async () => {
      expect(await deletesDuring(() => create(item('one')), 201)).toEqual([]);
    });

    it(`creates ${BURST} at once: all 201, each found by its name, barcode and case barcode`, async () => {
      expect(await burst((k) => create(item(k)))).toEqual(Array(BURST).fill(201));
      const found = await api().get('/api/v1/items?q=concurrent gizmo&per_page=100').set(bearer(manager));
      expect(found.body.data).toHaveLength(BURST + 1);
      for (const k of [0, BURST - 1])
        for (const code of [`CC-BC-${k}`, `CC-CASE-${k}`]) {
          const hit = await api().get(`/api/v1/items?q=${code}`).set(bearer(manager));
          expect(hit.body.data.map((i: { name: string }) => i.name)).toEqual([`Concurrent Gizmo ${k}`]);
        }
    });
  });

  describe('a transaction that keeps losing to others', () => {
    it('answers 503 contention with Retry-After: 1 after its six attempts, with nothing written (was a 500)', async () => {
      const deadlock = Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), {
        driverError: { code: 'ER_LOCK_DEADLOCK', errno: 1213 },
      });
      const real = TypeOrmItemRepository.prototype.create;
      const spy = jest.spyOn(TypeOrmItemRepository.prototype, 'create').mockImplementation(async function (this: TypeOrmItemRepository, ...args) {
        await real.apply(this, args); // the item's rows are written, then the "deadlock" rolls them back
        throw deadlock;
      });
      const retriesBefore = transactionRetries();
      try {
        const res = await api().post('/api/v1/items').set(bearer(manager)).send({ sku: 'CC-LOSER', name: 'Concurrent Loser', base_price: 1 });
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('1');
        expect(res.body).toEqual({
          success: false,
          message: 'The records this request writes are busy; nothing was changed. Try again shortly.',
          code: 'contention',
        });
        expect(spy).toHaveBeenCalledTimes(6);
        // each run again is counted (pos_db_transaction_retries_total): 6 attempts, 5 retries
        expect(transactionRetries() - retriesBefore).toBe(5);
        const metrics = await api().get('/metrics');
        expect(metrics.status).toBe(200);
        expect(Number(/^pos_db_transaction_retries_total (\d+)/m.exec(metrics.text)?.[1])).toBeGreaterThanOrEqual(5);
      } finally {
        spy.mockRestore();
      }
      const left = await t.db.query("SELECT COUNT(*) AS n FROM items WHERE sku = 'CC-LOSER'");
      expect(Number(left[0].n)).toBe(0);
    });
  });

  describe('pricing rules', () => {
    const rule = (k: number | string) => ({
      name: `Concurrent rule ${k}`,
      kind: 'percent_off',
      percent_off: 1,
      item_ids: [ids.item['COF-001']],
      category_ids: [ids.category.snacks],
    });
    const create = (body: Record<string, unknown>) => api().post('/api/v1/pricing-rules').set(bearer(manager)).send(body);

    it('writes a new rule and its targets without a DELETE', async () => {
      expect(await deletesDuring(() => create(rule('one')), 200)).toEqual([]);
    });

    it(`creates ${BURST} at once: all 200, each with its targets`, async () => {
      expect(await burst((k) => create(rule(k)))).toEqual(Array(BURST).fill(200));
      const rows = await t.db.query(
        "SELECT COUNT(*) AS n FROM pricing_rule_targets t JOIN pricing_rules r ON r.id = t.pricing_rule_id WHERE r.name LIKE 'Concurrent rule %'",
      );
      expect(Number(rows[0].n)).toBe(2 * (BURST + 1));
    });
  });

  describe('bundles', () => {
    const bundle = (k: number | string) => ({
      name: `Concurrent bundle ${k}`,
      code: `CCB-${k}`,
      price: 5,
      items: [
        { item_id: ids.item['COF-001'], quantity: 1 },
        { item_id: ids.item['BEV-003'], quantity: 2 },
      ],
    });
    const create = (body: Record<string, unknown>) => api().post('/api/v1/bundles').set(bearer(manager)).send(body);

    it('writes a new bundle and its components without a DELETE', async () => {
      expect(await deletesDuring(() => create(bundle('one')), 201)).toEqual([]);
    });

    it(`creates ${BURST} at once: all 201, each with its components`, async () => {
      expect(await burst((k) => create(bundle(k)))).toEqual(Array(BURST).fill(201));
      const rows = await t.db.query("SELECT COUNT(*) AS n FROM bundle_items t JOIN bundles b ON b.id = t.bundle_id WHERE b.code LIKE 'CCB-%'");
      expect(Number(rows[0].n)).toBe(2 * (BURST + 1));
    });
  });

  describe('API applications', () => {
    const app = (k: number | string) => ({ name: `Concurrent app ${k}`, permissions: ['sales.view'], store_ids: [ids.store.DT] });
    const create = (body: Record<string, unknown>) => api().post('/api/v1/api-applications').set(bearer(admin)).send(body);

    it('writes a new application, its permissions and stores without a DELETE', async () => {
      expect(await deletesDuring(() => create(app('one')), 201)).toEqual([]);
    });

    it(`creates ${BURST} at once: all 201, each with its store`, async () => {
      const made = await Promise.all(Array.from({ length: BURST }, (_, k) => create(app(k))));
      expect(made.map((r) => r.status)).toEqual(Array(BURST).fill(201));
      for (const r of made) expect(r.body.data.store_ids).toEqual([ids.store.DT]);
    });
  });
});
