import { taxReport } from '../application/tax-report';
import { defineReport } from './definition';

// rpt_tax by store and rate with the exempt lines split out, exempt sales from rpt_sales: a compute report.
export default defineReport({
  route: 'tax',
  operation: 'getTaxReport',
  title: 'Tax',
  description:
    'Per store and rate: taxable sales, tax collected, effective rate, refunded, net tax; the lines of tax-exempt sales in a row of their own (rate `exempt`), not in taxable sales.',
  permission: 'reports.tax',
  summary: ['taxable_sales', 'tax_collected', 'tax_refunded', 'net_tax', 'exempt_sales', 'exempt_net'],
  columns: [
    'store_id',
    'store_name',
    'rate',
    'rate_percent',
    'currency',
    'lines',
    'taxable_sales',
    'exempt_net',
    'tax_collected',
    'effective_rate_percent',
    'refunded_taxable',
    'refunded_exempt',
    'tax_refunded',
    'net_tax',
  ],
  build: taxReport,
});
