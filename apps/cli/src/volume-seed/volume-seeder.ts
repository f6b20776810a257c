import { DataSource } from 'typeorm';
import { CliRefusal, EXIT } from '../cli/errors';
import { rng } from './random';
import { loadReference } from './reference-data';
import { RowWriter } from './row-writer';
import { trade } from './trading';
import { VolumeOptions } from './types';

export type { VolumeOptions } from './types';

/**
 * `seed:volume`: a realistic year of trading for benchmarks, written straight into the tables
 * with multi-row INSERTs (a benchmark seeder, not a use case: going through checkout would take
 * hours for a million sales). On top of the demo data it adds a third store (Berlin, EUR, prices
 * including VAT), cashiers, customers and items, then day by day: cashier sessions, sales with
 * their lines priced by the pricing engine's priceCart (price books, promotions, bundles, manual
 * and cart discounts, tax), payments settled by the sales context's settle (cash with change,
 * card, splits, on account), invoices (on-account ones paid later, partly, or still open),
 * voids, and the stock ledger (sales, voids, weekly deliveries, damage and spoilage) with stock
 * levels equal to the sum of their movements, and returns: about 2.5% of the sales paid at the
 * till come back 1 to 14 days later, whole or in part, with the returns context's own rules for
 * the refund per line (lineRefund), where it goes (cash first: splitRefund) and what becomes of
 * the goods (stockAction: restocked, or in and written off).
 * Deterministic for a given --seed (one mulberry32 stream, drawn in the same order throughout).
 *
 * The parts: reference-data.ts (stores, cashiers, customers, items), trading.ts (the days),
 * sales.ts (a sale and its rows), cart.ts (its cart drawn and priced), payments.ts, invoices.ts,
 * returns.ts, stock-ledger.ts, row-writer.ts.
 */
export class VolumeSeeder {
  constructor(private readonly ds: DataSource) {}

  async run(o: VolumeOptions): Promise<Record<string, number>> {
    const rand = rng(o.seed);
    const mysql = this.ds.options.type === 'mysql';
    const qr = this.ds.createQueryRunner();
    await qr.connect();
    const db = new RowWriter(qr);
    const counts: Record<string, number> = {};
    try {
      if (mysql) await qr.query('SET foreign_key_checks = 0, unique_checks = 0');
      const existing = Number((await qr.query('SELECT COUNT(*) AS n FROM sales'))[0].n);
      if (existing > 0)
        throw new CliRefusal(`seed:volume refused: the database already has ${existing} sales; it fills an empty (demo) database`, EXIT.refused);
      const ref = await loadReference(db, rand, o);
      counts.items = ref.items.length;
      counts.customers = ref.customers.length;
      await trade(db, rand, o, ref, counts);
    } finally {
      if (mysql) await qr.query('SET foreign_key_checks = 1, unique_checks = 1').catch(() => undefined);
      await qr.release();
    }
    return counts;
  }
}
