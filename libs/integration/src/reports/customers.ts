import { customersReport } from '../application/customer-report';
import { defineReport } from './definition';

// The customer rollup (per currency or per store by scope) and rpt_sales: a compute report.
export default defineReport({
  route: 'customers',
  operation: 'getCustomersReport',
  title: 'Customers',
  description:
    'Sales to named customers: customers served, share of sales, net sales (before tax) and per customer, on account, refunds; rows: the top 100 customers by total per currency.',
  permission: 'reports.customers',
  summary: [
    'customers_served',
    'customer_sales',
    'customer_sales_share',
    'anonymous_sales',
    'customer_net_sales',
    'net_sales_per_customer',
    'on_account',
    'customer_refunds',
  ],
  columns: ['customer_id', 'customer_name', 'currency', 'sales_count', 'net_sales', 'total', 'average_sale', 'on_account', 'returns', 'refunds'],
  build: customersReport,
});
