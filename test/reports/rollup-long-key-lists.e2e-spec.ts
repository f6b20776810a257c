import { ClsService } from 'nestjs-cls';
import { SALES } from '../../libs/integration/src/domain/rollup-tables';
import type { RollupRow } from '../../libs/integration/src/domain/rollup-batch';
import { SqlRollupStore } from '../../libs/integration/src/infrastructure/sql-rollup.store';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * When the rollup applier catches up on a long backlog (days of entries in one batch) it removes
 * emptied rows and recomputes items' last sale for thousands of keys at once. SQLite refuses an
 * expression more than 1,000 deep ("Expression tree is too large"), so those key lists must be
 * matched in bounded chunks on both databases.
 */
describe('Rollup store: key lists longer than one statement can match', () => {
  let t: TestApp;
  let store: SqlRollupStore;
  const inCls = <T>(work: () => Promise<T>) => t.app.get(ClsService).run(work);

  beforeAll(async () => {
    t = await startTestApp();
    store = t.app.get(SqlRollupStore);
  });
  afterAll(() => t?.close());

  it('removes 1,500 emptied rows in one call', async () => {
    const rows: RollupRow[] = Array.from({ length: 1500 }, (_, i) => ({
      table: SALES,
      key: [0, 20000 + i, 1, 1],
      attrs: ['USD'],
      values: SALES.measures.map(() => 0),
    }));
    await inCls(() => store.add(rows));
    const count = async () => Number(((await t.db.query('SELECT COUNT(*) AS n FROM rpt_sales WHERE day >= 20000')) as { n: number }[])[0].n);
    expect(await count()).toBe(1500);
    await inCls(() => store.removeEmpty(rows));
    expect(await count()).toBe(0);
  });

  it("recomputes 1,500 items' last sale in one call", async () => {
    const pairs = Array.from({ length: 1500 }, (_, i) => ({ warehouseId: 1, itemId: 100000 + i }));
    await inCls(() => store.recomputeLastSale(pairs));
    const [{ n }] = (await t.db.query('SELECT COUNT(*) AS n FROM rpt_item_last_sale WHERE item_id >= 100000')) as { n: number }[];
    expect(Number(n)).toBe(0);
  });
});
