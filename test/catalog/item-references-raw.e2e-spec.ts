import { In } from 'typeorm';
import { ItemRepository } from '../../libs/catalog/src/application/catalog.ports';
import { ItemBarcodeEntity, ItemUnitEntity } from '../../libs/catalog/src/infrastructure/catalog.entities';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * An item page's barcodes and units are read without TypeORM's query builder (findInRaw, in
 * chunks of 1,000 item ids): the same records, in the same id order, as `find` with `In`, also
 * for more than one chunk whose rows come back out of id order. On both databases.
 */
describe('Barcodes and units of many items, read raw', () => {
  let t: TestApp;
  let ids: number[];
  const N = 1_100;

  beforeAll(async () => {
    t = await startTestApp();
    const now = '2026-01-01 00:00:00';
    const first = Number(((await t.db.query('SELECT COALESCE(MAX(id), 0) AS m FROM items')) as { m: number | string }[])[0].m) + 1;
    ids = Array.from({ length: N }, (_, k) => first + k);
    for (let k = 0; k < N; k += 250) {
      const part = ids.slice(k, k + 250);
      await t.db.query(
        `INSERT INTO items (id, sku, name, base_price, cost, base_unit, is_active, is_serial_tracked, reorder_level, reorder_quantity, created_at, updated_at) VALUES ${part
          .map(() => "(?, ?, ?, 100, 50, 'each', 1, 0, 0, 0, ?, ?)")
          .join(', ')}`,
        part.flatMap((id) => [id, `RAW-${id}`, `Raw item ${id}`, now, now]),
      );
    }
    // Written from the last item back: the highest item ids get the lowest row ids, so the rows of
    // the second chunk of item ids come before the first chunk's in id order.
    for (const id of [...ids].reverse()) {
      if (id % 3 === 0) {
        await t.db.query("INSERT INTO item_units (item_id, name, factor, price, created_at, updated_at) VALUES (?, 'case', 12, ?, ?, ?)", [
          id,
          id % 2 ? null : 1200,
          now,
          now,
        ]);
      }
    }
    for (let k = N - 1; k >= 0; k -= 200) {
      const part = ids.slice(Math.max(0, k - 199), k + 1).reverse();
      await t.db.query(
        `INSERT INTO item_barcodes (item_id, barcode) VALUES ${part.map(() => '(?, ?)').join(', ')}`,
        part.flatMap((id) => [id, `RAWCODE${id}`]),
      );
    }
  });
  afterAll(() => t.close());

  const plain = (rows: object[]) => rows.map((r) => ({ ...r }));

  it('answers what find with In answers, in id order, across chunks', async () => {
    const repo = t.app.get(ItemRepository, { strict: false });
    const wanted = [...ids.slice(0, 600), ...ids.slice(-600)];
    const barcodes = await repo.barcodes(wanted);
    const units = await repo.units(wanted);
    const viaFind = {
      barcodes: await t.db.getRepository(ItemBarcodeEntity).find({ where: { itemId: In(wanted) }, order: { id: 'ASC' } }),
      units: await t.db.getRepository(ItemUnitEntity).find({ where: { itemId: In(wanted) }, order: { id: 'ASC' } }),
    };
    expect(barcodes.length).toBe(N);
    expect(units.length).toBeGreaterThan(300);
    expect(plain(barcodes)).toEqual(plain(viaFind.barcodes));
    expect(plain(units)).toEqual(plain(viaFind.units));
    expect(units.some((u) => u.price === null) && units.some((u) => u.price === 1200)).toBe(true);
  });

  it('answers nothing for no ids, and each item once for repeated ids', async () => {
    const repo = t.app.get(ItemRepository, { strict: false });
    expect(await repo.barcodes([])).toEqual([]);
    expect((await repo.barcodes([ids[0], ids[0], ids[1]])).map((b) => b.itemId)).toEqual([ids[1], ids[0]]);
  });
});
