import { DAY_MS, utcDayOf } from '@pos/kernel';
import { defineCommand } from '../cli/command';
import { CliRefusal } from '../cli/errors';
import { int, utcDay } from '../cli/values';

export default defineCommand({
  name: 'seed:volume',
  summary: 'Fill an empty (demo) database with a realistic volume of trading, for benchmarks',
  description:
    'Loads the demo data first if the database is empty, then --days of trading (sessions, sales, payments, invoices, voids, returns, the stock ledger) and rebuilds the report rollups. Refused when the database already has sales. The same --seed and --as-of write the same trading (the days, and so the sales per store, follow the calendar).',
  flags: {
    sales: { value: 'N', required: true, description: 'number of sales to write, e.g. 1000000' },
    items: { value: 'N', description: 'items added to the catalogue (default 500)' },
    customers: { value: 'N', description: 'customers added (default 2000)' },
    days: { value: 'N', description: 'days of trading, ending the day before --as-of (default 365)' },
    'as-of': {
      value: 'YYYY-MM-DD',
      description: 'seed as if run on this day, today or earlier (default today, at the current time; an earlier day: at 12:00 UTC)',
    },
    seed: { value: 'N', description: 'random seed (default 1)' },
  },
  examples: ['seed:volume --sales 1000000', 'seed:volume --sales 3000 --items 80 --customers 60 --days 60 --seed 5 --as-of 2026-06-30'],
  async run(flags, ctx) {
    const options = {
      sales: int(flags, 'sales', { min: 1 })!,
      items: int(flags, 'items', { min: 1 }) ?? 500,
      customers: int(flags, 'customers', { min: 1 }) ?? 2000,
      days: int(flags, 'days', { min: 1 }) ?? 365,
      seed: int(flags, 'seed') ?? 1,
      now: seedTime(utcDay(flags, 'as-of')),
    };
    const { seedVolume } = await import('../volume-seed/seed-volume');
    return seedVolume(ctx, options);
  },
});

/** The instant the seed runs at: now, or noon UTC of an earlier --as-of day (every store's day before it has ended by then). */
function seedTime(asOf: number | undefined, now = new Date()): Date {
  const today = utcDayOf(now);
  if (asOf === undefined || asOf === today) return now;
  if (asOf > today) throw new CliRefusal('--as-of must be today or an earlier day');
  return new Date(asOf * DAY_MS + DAY_MS / 2);
}
