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
  let bar: Progress | undefined;
  let stage: 'read' | 'write' | undefined;
  const report = await app.get(RollupRebuildService).rebuild((m) => (/^(sales|stock movements): \d+$/.test(m) ? undefined : ctx.log(m)), {
    chunkRows,
    onRows: (now, done, total) => {
      if (now !== stage) {
        bar?.finish();
        stage = now;
        bar = now === 'read' ? ctx.progress('reading records', records, 'records') : ctx.progress('writing rollups', total, 'rows');
      }
      bar!.update(done, now === 'read' ? Math.max(records, done) : total);
    },
  });
  bar?.finish();
  return report;
}
