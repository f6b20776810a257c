import { returnsReport } from '../application/returns-report';
import { defineReport } from './definition';

// Two tables (rpt_returns by reason, rpt_sales for distinct returns and the refund rate): a compute report.
export default defineReport({
  route: 'returns',
  operation: 'getReturnsReport',
  title: 'Returns',
  description: 'Processed returns by reason and condition (on the day processed): units, restocked units, refunds (net, tax, total), cost returned.',
  permission: 'reports.sales',
  summary: ['returns', 'units_returned', 'units_restocked', 'refund_total', 'refund_net', 'refund_tax', 'cost_returned', 'refund_rate'],
  columns: [
    'reason',
    'condition',
    'currency',
    'returns',
    'lines_returned',
    'units_returned',
    'units_restocked',
    'refund_net',
    'refund_tax',
    'refund_total',
    'cost',
  ],
  build: returnsReport,
});
