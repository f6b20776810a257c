import { defineCommand } from '../cli/command';
import { int } from '../cli/values';

export default defineCommand({
  name: 'seed:volume',
  summary: 'Fill an empty (demo) database with a realistic volume of trading, for benchmarks',
  description:
    'Loads the demo data first if the database is empty, then --days of trading (sessions, sales, payments, invoices, voids, returns, the stock ledger) and rebuilds the report rollups. Refused when the database already has sales. Deterministic for a given --seed.',
  flags: {
    sales: { value: 'N', required: true, description: 'number of sales to write, e.g. 1000000' },
    items: { value: 'N', description: 'items added to the catalogue (default 500)' },
    customers: { value: 'N', description: 'customers added (default 2000)' },
    days: { value: 'N', description: 'days of trading, ending today (default 365)' },
    seed: { value: 'N', description: 'random seed (default 1)' },
  },
  examples: ['seed:volume --sales 1000000', 'seed:volume --sales 3000 --items 80 --customers 60 --days 60 --seed 5'],
  async run(flags, ctx) {
    const options = {
      sales: int(flags, 'sales', { min: 1 })!,
      items: int(flags, 'items', { min: 1 }) ?? 500,
      customers: int(flags, 'customers', { min: 1 }) ?? 2000,
      days: int(flags, 'days', { min: 1 }) ?? 365,
      seed: int(flags, 'seed') ?? 1,
    };
    const { seedVolume } = await import('../volume-seed/seed-volume');
    return seedVolume(ctx, options);
  },
});
