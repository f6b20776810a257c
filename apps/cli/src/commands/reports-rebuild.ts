import { defineCommand } from '../cli/command';
import { int } from '../cli/values';

export default defineCommand({
  name: 'reports:rebuild',
  summary: 'Rebuild the report rollups from the raw sales, returns and stock ledger',
  description:
    'Sales may go on meanwhile; the rollups are replaced in transactions of --chunk-rows rows. A progress bar on stderr (a TTY) or a progress line per tenth (otherwise); the result as JSON on stdout.',
  flags: {
    'chunk-rows': { value: 'ROWS', description: 'rollup rows per transaction (default REPORTS_REBUILD_CHUNK_ROWS)' },
  },
  examples: ['reports:rebuild', 'reports:rebuild --chunk-rows 2000'],
  async run(flags, ctx) {
    const chunkRows = int(flags, 'chunk-rows', { min: 1 });
    const { ALL_FEATURES } = await import('../runtime/full');
    const { rebuildWithProgress } = await import('../runtime/rebuild');
    return rebuildWithProgress(await ctx.nest(ALL_FEATURES), ctx, chunkRows);
  },
});
