import type { CliContext } from '../cli/command';
import { ALL_FEATURES, DemoDataService, ItemService, SaleFactsReader } from '../runtime/full';
import { rebuildWithProgress } from '../runtime/rebuild';
import { DataSource } from 'typeorm';
import { VolumeSeeder } from './volume-seeder';

export interface SeedVolumeOptions {
  sales: number;
  items: number;
  customers: number;
  days: number;
  seed: number;
  /** The instant the seed runs at (the trading is the `days` days before its day). */
  now: Date;
}

/** seed:volume: the demo data if the database is empty, the trading (a progress bar per sale), the feeds' counts, the name index, the rollups. */
export async function seedVolume(ctx: CliContext, options: SeedVolumeOptions) {
  const app = await ctx.nest(ALL_FEATURES);
  const log = (m: string) => ctx.log(`${new Date().toISOString()} ${m}`);
  const demo = app.get(DemoDataService);
  // The bare demo set: the volume seeder writes its own trading and refuses a database that has sales.
  if (await demo.isEmpty()) await demo.seed({ historyDays: 0 });
  const started = Date.now();
  const bar = ctx.progress('writing sales', options.sales, 'sales');
  const counts = await new VolumeSeeder(app.get(DataSource)).run({ ...options, progress: (n) => bar.update(n, Math.max(options.sales, n)) });
  bar.finish();
  log(`seeded in ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(counts)}; recounting the feeds' sale counts, rebuilding the report rollups`);
  await app.get(SaleFactsReader).rebuildFeedCounts();
  await app.get(ItemService).rebuildNameIndex();
  const rollups = await rebuildWithProgress(app, ctx);
  return { seeded: counts, rollups };
}
