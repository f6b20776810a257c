import { randomUUID } from 'node:crypto';
import { insertRows, OutboxEventEntity } from '@pos/platform';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * insertRows (the plain multi-row INSERT the checkout writes its records with) stores exactly what
 * TypeORM's own insert stores, on both databases: money through its transformer, booleans, UTC
 * dates (whole seconds: MySQL keeps no fraction) and nulls; its ids are the rows’ own,
 * in order, across statements when the rows need more than one; rows that do not all define the
 * same columns are written in runs that do (TypeORM's multi-row insert assumes consecutive ids).
 */
describe('insertRows', () => {
  let t: TestApp;
  let storeId: number;
  let userId: number;

  beforeAll(async () => {
    t = await startTestApp();
    storeId = Number(((await t.db.query('SELECT MIN(id) AS id FROM stores')) as { id: number }[])[0].id);
    userId = Number(((await t.db.query('SELECT MIN(id) AS id FROM users')) as { id: number }[])[0].id);
  });
  afterAll(() => t.close());

  const sale = (n: number, key: string) => ({
    storeId,
    warehouseId: n === 1 ? null : 1,
    sessionId: null,
    userId,
    customerId: null,
    receiptNumber: `IR-${key}`,
    status: 'completed',
    subtotal: 123_456_789_012 + n,
    discountTotal: 0,
    taxTotal: 17,
    totalAmount: 123_456_789_029 + n,
    pricesIncludeTax: n === 2,
    voidedAfterClose: false,
    paidAmount: 5,
    changeAmount: 0,
    balanceDue: 0,
    currencyCode: 'USD',
    reference: n === 2 ? "ünïcödé ‘quotes’ \\ and ' too" : null,
    idempotencyKey: key,
    taxExempt: n === 1,
    taxExemptReason: n === 1 ? 'diplomat' : null,
    offlineCreatedAt: n === 0 ? new Date('2026-01-02T03:04:05.000Z') : null,
    syncedAt: null,
    voidedAt: null,
    voidedBy: null,
    voidReason: null,
    createdAt: new Date(Date.UTC(2026, 10, 25, 23, 59, 58 + n)),
    updatedAt: new Date(Date.UTC(2026, 10, 25, 23, 59, 59)),
  });

  it('stores what TypeORM stores, and answers the rows’ own ids in order', async () => {
    const tag = randomUUID().slice(0, 8);
    const ours = [0, 1, 2].map((n) => sale(n, `ours-${tag}-${n}`));
    const theirs = [0, 1, 2].map((n) => sale(n, `theirs-${tag}-${n}`));
    const ids = await insertRows(t.db.manager, 'sales', ours);
    await t.db.getRepository('sales').insert(theirs);
    const byKey = async (key: string) => (await t.db.query('SELECT * FROM sales WHERE idempotency_key = ?', [key])) as Record<string, unknown>[];
    for (const n of [0, 1, 2]) {
      const [a] = await byKey(`ours-${tag}-${n}`);
      const [b] = await byKey(`theirs-${tag}-${n}`);
      expect(Number(a.id)).toBe(ids[n]);
      const strip = (r: Record<string, unknown>) => {
        const { id: _id, idempotency_key: _key, receipt_number: _receipt, ...rest } = r;
        return rest;
      };
      expect(strip(a)).toEqual(strip(b));
      // hydrated through the entity: the values written, not merely the same as TypeORM's
      const read = (await t.db.getRepository('sales').findOneBy({ id: ids[n] })) as Record<string, unknown>;
      expect(read).toEqual({ ...ours[n], id: ids[n] });
    }
  });

  it('spreads many rows over several statements and keeps their ids in order', async () => {
    const columns = t.db.getMetadata(OutboxEventEntity).columns.length - 1;
    const count = Math.ceil(30_000 / columns) + 7;
    const tag = randomUUID();
    const rows = Array.from({ length: count }, (_, i) => ({
      type: 'test.insert_rows',
      storeId: i % 3 === 0 ? null : storeId,
      payload: JSON.stringify({ tag, i }),
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)),
      publishedAt: null,
    }));
    const ids = await insertRows(t.db.manager, OutboxEventEntity, rows);
    expect(ids).toHaveLength(count);
    const stored = (await t.db.query('SELECT id, payload FROM outbox_events WHERE type = ? AND payload LIKE ? ORDER BY id', [
      'test.insert_rows',
      `%${tag}%`,
    ])) as { id: number; payload: string }[];
    expect(stored).toHaveLength(count);
    for (const [k, r] of stored.entries()) {
      expect(Number(r.id)).toBe(ids[k]);
      expect(JSON.parse(r.payload)).toEqual({ tag, i: k });
    }
    const one = await t.db.getRepository(OutboxEventEntity).findOneByOrFail({ id: ids[count - 1] });
    expect(one.createdAt.toISOString()).toBe(rows[count - 1].createdAt.toISOString());
    // delivered by nobody: keep the relay out of it
    await t.db.query('DELETE FROM outbox_events WHERE type = ?', ['test.insert_rows']);
  });

  it('writes rows that define different columns in runs of the same columns, ids still in order', async () => {
    const tag = randomUUID();
    const rows: Partial<OutboxEventEntity>[] = [
      { type: 'test.insert_rows_mixed', storeId, payload: `${tag}-0`, createdAt: new Date(), publishedAt: null },
      { type: 'test.insert_rows_mixed', payload: `${tag}-1`, createdAt: new Date(), publishedAt: null },
    ];
    const ids = await insertRows(t.db.manager, OutboxEventEntity, rows);
    const stored = (await t.db.query('SELECT id, store_id, payload FROM outbox_events WHERE type = ? ORDER BY id', ['test.insert_rows_mixed'])) as {
      id: number;
      store_id: number | null;
      payload: string;
    }[];
    expect(stored.map((r) => [Number(r.id), r.payload, r.store_id === null ? null : Number(r.store_id)])).toEqual([
      [ids[0], `${tag}-0`, storeId],
      [ids[1], `${tag}-1`, null],
    ]);
    await t.db.query('DELETE FROM outbox_events WHERE type = ?', ['test.insert_rows_mixed']);
  });

  it('writes nothing for no rows', async () => {
    await expect(insertRows(t.db.manager, OutboxEventEntity, [])).resolves.toEqual([]);
  });
});
