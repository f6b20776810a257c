import { defineCommand } from '../cli/command';

export default defineCommand({
  name: 'seed:demo',
  summary: 'Load the demo data set (idempotent: creates only what is missing)',
  flags: {},
  examples: ['seed:demo'],
  async run(_flags, ctx) {
    const { ALL_FEATURES, DemoDataService } = await import('../runtime/full');
    return (await ctx.nest(ALL_FEATURES)).get(DemoDataService).seed();
  },
});
