import { percent } from '../../domain/report-math';
import type { MeasureOf } from '../../domain/rollup-tables';
import { PRICE_SOURCES } from '../../domain/rollup-tables';
import type { FigureSet } from '../formula';

type P = MeasureOf<typeof PRICE_SOURCES>;

/** The price-source figures of metrics.ts over rpt_price_sources, in minor units. */
export const PRICE_SOURCE_FIGURES = {
  lines: (r) => r.line_count,
  units: (r) => r.units,
  gross_sales: (r) => r.gross,
  discounts: (r) => r.discounts,
  net_sales: (r) => r.net,
  share_of_lines: (r, x) => percent(r.line_count, x.total.line_count),
  share_of_net_sales: (r, x) => percent(r.net, x.total.net),
  // The share of one source (`vars.source`) in the currency's lines.
  '{source}_share': {
    of: ['line_count'],
    value: (r, x) => percent(x.groups.find((g) => g.price_source === x.vars?.source)?.line_count ?? 0, r.line_count),
  },
} satisfies FigureSet<P>;
