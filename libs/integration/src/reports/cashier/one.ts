import { NotFoundError } from '@pos/kernel';
import { NameDirectory } from '../../application/name.directory';
import { CASHIERS } from '../../domain/rollup-tables';
import { CASHIER_COLUMNS } from '../cashier';
import { defineReport } from '../definition';
import { CASHIER_FIGURES } from '../figures/sales.figures';
import { BY_CASHIER_DAY } from '../grain-codes';
import { rollupReport } from '../rollup-report';

/** The report of one cashier: the cashier rollup read for that user only, titled with their name. */
const ofCashier = (userId: number, name: string) =>
  rollupReport({
    table: CASHIERS,
    figures: CASHIER_FIGURES,
    summary: ['sales_count', 'items_sold', 'total', 'net_sales', 'average_sale', 'discounts', 'voids', 'returns_processed', 'refunds'],
    rows: {
      grain: BY_CASHIER_DAY,
      columns: ['date', ...CASHIER_COLUMNS],
    },
    charts: [{ type: 'line', title: `Total per day: ${name}`, metric: 'total' }],
    where: { user_id: userId },
  });

const shape = ofCashier(0, '');

export default defineReport({
  route: 'cashier/:cashier',
  operation: 'getCashierReport',
  title: 'One cashier',
  description: 'The cashier’s figures and one row per business day. The cashier is a user id: staff of the caller’s stores (anyone else is 404).',
  permission: 'reports.sales',
  param: {
    name: 'cashier',
    notFound: 'No member of staff of your stores with that id (another store’s cashier, an API application, or not a positive integer)',
  },
  summary: shape.summary,
  columns: shape.columns,
  build: async (ctx) => {
    const id = ctx.param as number;
    // Only staff of the caller's stores: anyone else (another store's cashier, an API application) is 404, as an unknown id.
    const name = await ctx.use(NameDirectory).staffName(id, ctx.principal.stores);
    if (name === undefined) throw new NotFoundError('Cashier');
    return ofCashier(id, name).build(ctx);
  },
});
