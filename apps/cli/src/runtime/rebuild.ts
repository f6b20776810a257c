import { INestApplicationContext } from '@nestjs/common';
import { RollupRebuildService } from '@pos/integration';
import { DataSource } from 'typeorm';
import type { CliContext } from '../cli/command';
import type { Progress } from '../cli/progress';

/**
 * reports:rebuild with two progress bars: the raw records read (sales, processed returns, stock
 * movements, counted first), then the rollup rows written. The service's own lines go to stderr
 * too, but for its running counts, which the bars show.
 */
export async function rebuildWithProgress(app: INestApplicationContext, ctx: CliContext, chunkRows?: number) {
  const ds = app.get(DataSource);
  const count = async (sql: string) => Number((await ds.query(sql))[0].n);
  const records =
    (await count('SELECT COUNT(*) AS n FROM sales')) +
    (await count("SELECT COUNT(*) AS n FROM sale_returns WHERE status = 'processed'")) +
    (await count('SELECT COUNT(*) AS n FROM stock_movements'));
  // the read bar from the start; the write bar from the service's "writing N rollup rows" line (its clock starts with the first chunk)
  let bar: Progress = ctx.progress('reading records', records, 'records');
  let stage: 'read' | 'write' = 'read';
  const toWrite = () => {
    if (stage === 'write') return;
    bar.finish();
    stage = 'write';
    bar = ctx.progress('writing rollups', 0, 'rows');
  };
  const report = await app.get(RollupRebuildService).rebuild(
    (m) => {
      if (/^(sales|stock movements): \d+$/.test(m)) return; // the bar shows these counts
      if (m.startsWith('writing ')) toWrite();
      ctx.log(m);
    },
    {
      chunkRows,
      onRows: (now, done, total) => {
        if (now === 'write') toWrite();
        bar.update(done, now === 'read' ? Math.max(records, done) : total);
      },
    },
  );
  bar.finish();
  return report;
}
