import { allocateByLargestRemainder } from '@pos/kernel';
import { Rand } from './random';
import { itemPicker } from './reference-data';
import { ReturnBook } from './returns';
import { dt, offsetMs, RowWriter } from './row-writer';
import { Trading, writeSale } from './sales';
import { StockLedger } from './stock-ledger';
import { Counts, DAY, Reference, Store, VolumeOptions } from './types';

/**
 * A year of trading (the `days` days before today), day by day and store by store: weekly
 * deliveries, write-offs, three cashier sessions, the returns due that day, the day's sales; then
 * stock levels equal to the sum of their movements and the receipt and return counters.
 */
export async function trade(db: RowWriter, rand: Rand, o: VolumeOptions, ref: Reference, counts: Counts): Promise<void> {
  const { stores, items, order, cumulative, central } = ref;
  const now = o.now;
  const next = async (table: string) => Number((await db.qr.query(`SELECT COALESCE(MAX(id), 0) AS n FROM ${table}`))[0].n) + 1;
  const ids = {
    sale: await next('sales'),
    line: await next('sale_items'),
    payment: await next('sale_payments'),
    invoice: await next('invoices'),
    session: await next('cashier_sessions'),
    return: 0,
  };
  const receipt = new Map<number, number>(stores.map((s) => [s.id, 0]));
  for (const r of (await db.qr.query('SELECT store_id, last_number FROM receipt_counters')) as Record<string, unknown>[])
    receipt.set(Number(r.store_id), Number(r.last_number));

  const ledger = new StockLedger(db, counts);
  await ledger.load();
  const move = ledger.move;
  const pickItem = itemPicker(ref, rand);

  // Sales per day (the `days` days before today): weekday and season weights, split exactly.
  const firstDay = Math.floor(now.getTime() / DAY) - o.days;
  const weekdayWeight = [0.8, 0.9, 0.9, 1, 1, 1.2, 1.3]; // Sun..Sat
  const dayWeights: number[] = [];
  for (let d = 0; d < o.days; d++) {
    const date = new Date((firstDay + d) * DAY);
    const season = date.getUTCMonth() === 11 ? 1.3 : date.getUTCMonth() === 0 ? 0.85 : 1;
    dayWeights.push(weekdayWeight[date.getUTCDay()] * season * (0.9 + rand() * 0.2));
  }
  const dayTargets = allocateByLargestRemainder(o.sales, dayWeights.map(integerWeight));
  // Expected units a week of the item at position k of `items` in a store (1.9 lines a sale, 1.4 units a line).
  const rankOf = new Map(order.map((itemIndex, rank) => [itemIndex, rank]));
  const totalWeight = cumulative[cumulative.length - 1];
  const weeklyDemand = (k: number, store: Store) => {
    const rank = rankOf.get(k) ?? 0;
    const w = (cumulative[rank] - (rank ? cumulative[rank - 1] : 0)) / totalWeight;
    return (o.sales / o.days) * store.share * 1.9 * 1.4 * 7 * w;
  };

  ids.return = await next('sale_returns');
  const returns = new ReturnBook(db, rand, now);
  await returns.load(ref.managerId);
  const t: Trading = {
    db,
    rand,
    o,
    ref,
    counts,
    move,
    pickItem,
    returns,
    ids,
    receipt,
    returnsDue: new Map(),
    openInvoices: [],
    now,
    firstDay,
  };

  for (let d = 0; d < o.days; d++) {
    const dayStart = (firstDay + d) * DAY;
    const storeTargets = allocateByLargestRemainder(
      dayTargets[d],
      stores.map((s) => integerWeight(s.share)),
    );
    const weekly = new Date(dayStart).getUTCDay() === 1 || d === 0;
    for (const [storeIndex, store] of stores.entries()) {
      const offset = offsetMs(store.tz, dayStart + 12 * 3_600_000);
      const localMidnight = dayStart - offset;
      // Deliveries: Mondays 06:00 local (and on day 1), topping every item up for the week ahead.
      if (weekly) {
        for (const [k, item] of items.entries()) {
          const wh = store.warehouseId;
          const have = ledger.level(item.id, wh);
          const want = Math.max(20, Math.ceil(1.6 * weeklyDemand(k, store)));
          if (have < want) move(item.id, wh, 'receive', want - have, new Date(localMidnight + 6 * 3_600_000), 'purchase', `PO-${d}-${wh}`, item.cost);
        }
        if (store === stores[0]) {
          for (const item of items) {
            const have = ledger.level(item.id, central);
            if (have < 150) move(item.id, central, 'receive', 200 - have, new Date(localMidnight + 5 * 3_600_000), 'purchase', `PO-${d}-${central}`, item.cost);
          }
        }
      }
      // A few write-offs a day.
      for (let k = 0; k < 2; k++) {
        if (rand() < 0.6) {
          const item = pickItem();
          move(
            item.id,
            store.warehouseId,
            rand() < 0.6 ? 'damage' : 'spoilage',
            -1,
            new Date(localMidnight + 20 * 3_600_000),
            'adjustment',
            `ADJ-${d}-${store.id}-${k}`,
            item.cost,
          );
        }
      }

      // Three sessions a day: 08:00-21:00 local, cashiers rotating.
      const sessions = [0, 1, 2].map((k) => ({
        id: ids.session++,
        userId: store.cashiers[(d + k) % store.cashiers.length],
        cashSales: 0,
        opening: 200_00,
      }));
      for (const r of t.returnsDue.get(d) ?? []) if (r.store === store) returns.recordReturn(r, sessions[r.id % 3], move, counts);
      const count = storeTargets[storeIndex];
      for (let n = 0; n < count; n++) await writeSale(t, store, d, n, localMidnight, sessions);
      for (const [k, s] of sessions.entries()) {
        const opened = new Date(localMidnight + (8 + k * 0.1) * 3_600_000);
        const expected = s.opening + s.cashSales;
        const discrepancy = rand() < 0.9 ? 0 : Math.round((rand() - 0.5) * 1000);
        db.push('cashier_sessions', {
          id: s.id,
          user_id: s.userId,
          store_id: store.id,
          status: 'closed',
          live_key: null,
          opening_balance: s.opening,
          closing_balance: expected + discrepancy,
          expected_cash: expected,
          discrepancy,
          opened_at: dt(opened),
          closed_at: dt(new Date(localMidnight + 21 * 3_600_000)),
          created_at: dt(opened),
          updated_at: dt(opened),
        });
      }
    }
    if (db.pending() > 40_000) await db.flushAll();
  }
  await db.flushAll();
  counts.open_invoices = t.openInvoices.length;

  // Stock levels = the sum of their movements; receipt counters follow the numbers used.
  await ledger.writeLevels(now);
  for (const [storeId, n] of receipt) {
    await db.qr.query('DELETE FROM receipt_counters WHERE store_id = ?', [storeId]);
    await db.qr.query('INSERT INTO receipt_counters (store_id, last_number) VALUES (?, ?)', [storeId, n]);
  }
  await returns.writeCounters();
}

/** A fractional weight as the integer one the kernel's allocator takes (a millionth is finer than any count split here). */
function integerWeight(w: number): number {
  return Math.round(w * 1_000_000);
}
