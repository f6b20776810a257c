import request from 'supertest';
import { Clock } from '@pos/kernel';
import * as engine from '../../libs/pricing/src/domain/pricing-engine';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoIds } from '../catalog/catalog-helpers';

/**
 * The POS live price is kept per process and served again without an engine run (issue 29), but
 * never stale: a base price change, a new rule, a rule's or price book's window starting or
 * ending, a rule's hours beginning, each shows at the very next lookup. The clock is the app's
 * injected one (moved by a spy): the pricing reference cache (rules, books: 5 s of real time)
 * holds the same objects across these lookups, so only the priced cache's own boundaries can
 * change the answer. On both databases.
 */
describe('POS live price cache', () => {
  let t: TestApp;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  let storeZone: string;
  const api = () => request(t.http);
  const show = async (sku: string) => {
    const res = await api().get(`/api/v1/pos/products/${ids.item[sku]}`).query({ store_id: ids.store.DT }).set(bearer(cashier));
    expect(res.status).toBe(200);
    return { price: res.body.data.price as number, source: res.body.data.price_source as string };
  };
  const rule = async (body: Record<string, unknown>) => {
    const res = await api()
      .post('/api/v1/pricing-rules')
      .set(bearer(manager))
      .send({ kind: 'percent_off', percent_off: 50, priority: 1, ...body });
    expect(res.status).toBe(200);
    return res.body.data.id as number;
  };
  /** Runs `fn` with the app's clock reading `at` (and moving only when set again). */
  const at = async <T>(moment: Date, fn: (set: (d: Date) => void) => Promise<T>): Promise<T> => {
    let now = moment;
    const spy = jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => now);
    try {
      return await fn((d) => (now = d));
    } finally {
      spy.mockRestore();
    }
  };

  beforeAll(async () => {
    t = await startTestApp();
    [manager, cashier] = await Promise.all([login(t, DEMO.manager), login(t, DEMO.cashier)]);
    ids = await demoIds(t);
    storeZone = String((await t.db.query('SELECT timezone FROM stores WHERE id = ?', [ids.store.DT]))[0].timezone);
  });
  afterAll(() => t.close());

  it('serves a repeated lookup without an engine run', async () => {
    await show('BEV-001');
    const spy = jest.spyOn(engine, 'priceCart');
    try {
      expect(await show('BEV-001')).toEqual({ price: 1.29, source: 'base' });
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('shows a changed base price and a new rule at the next lookup', async () => {
    expect(await show('BEV-002')).toMatchObject({ source: 'base' });
    const put = await api().put(`/api/v1/items/${ids.item['BEV-002']}`).set(bearer(manager)).send({ base_price: 4 });
    expect(put.status).toBe(200);
    expect(await show('BEV-002')).toEqual({ price: 4, source: 'base' });
    await rule({ name: 'Half BEV-002', item_ids: [ids.item['BEV-002']] });
    expect(await show('BEV-002')).toEqual({ price: 2, source: 'pricing_rule' });
  });

  it('applies a rule from its first moment to its last, whatever was priced before', async () => {
    const start = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000); // whole seconds: DATETIME keeps no more
    const end = new Date(start.getTime() + 600_000);
    await rule({ name: 'Later BEV-003', item_ids: [ids.item['BEV-003']], valid_from: start.toISOString(), valid_to: end.toISOString() });
    const base = await show('BEV-003');
    await at(new Date(start.getTime() - 1), async (set) => {
      expect(await show('BEV-003')).toEqual(base);
      set(start);
      expect((await show('BEV-003')).source).toBe('pricing_rule');
      set(end);
      expect((await show('BEV-003')).source).toBe('pricing_rule');
      set(new Date(end.getTime() + 1));
      expect(await show('BEV-003')).toEqual(base);
    });
  });

  it("applies a rule with hours from the first minute of its hours in the store's zone", async () => {
    // A moment whose local minute is known, and a rule whose hours begin two minutes later.
    const moment = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 7 * 86_400_000 + 30_000);
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: storeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(moment.getTime() + 120_000),
    );
    const [h, m] = local.split(':').map(Number);
    const endAt = `${String((h + 1) % 24).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
    await rule({ name: 'Happy hour SNK-001', item_ids: [ids.item['SNK-001']], start_time: local, end_time: endAt });
    await at(moment, async (set) => {
      const before = await show('SNK-001');
      expect(before.source).not.toBe('pricing_rule');
      set(new Date(moment.getTime() + 60_000));
      expect(await show('SNK-001')).toEqual(before);
      set(new Date(moment.getTime() + 90_000)); // the first moment of the hours' first minute
      expect((await show('SNK-001')).source).toBe('pricing_rule');
    });
  });
});
