/*
 * What the dashboard shows, as data: the reports in order with the permission each needs and the
 * table columns they list, and the headline figures. Every key here is a key the API sends: the
 * unit spec (panels.spec.ts) checks them against the report definitions. Plain browser
 * JavaScript (no build step); exposes window.PosPanels.
 */
(() => {
  'use strict';

  /**
   * The reports shown, in order, and the permission each needs (the contract's table). `rows`
   * lists a table's columns: [key, heading, minor?]; minor columns give way below 1100 px, 'phone'
   * ones on a phone only (`under` then shows one under another column there).
   * `percent` names the charts (by title) whose values are percentages, not the series' currency;
   * `counts` says a report's charts count things (singular, plural): a series' `currency` is the
   * currency its stores trade in (every sales series is per currency), not the unit of its values.
   */
  const PANELS = [
    { report: 'sales', perm: 'reports.sales', title: 'Sales and revenue over time', wide: true },
    { report: 'payments', perm: 'reports.payments', title: 'Payment mix' },
    { report: 'heatmap', perm: 'reports.sales', title: 'Sales by hour and weekday', wide: true, counts: ['sale', 'sales'] },
    {
      report: 'products/abc',
      perm: 'reports.inventory',
      title: 'Top products (ABC)',
      percent: /cumulative|pareto/i,
      rows: [
        ['rank', '#'],
        ['name', 'Item'],
        ['sku', 'SKU', true],
        ['revenue', 'Revenue'],
        ['share_percent', 'Share'],
        ['cumulative_percent', 'Cumulative', true],
        ['class', 'Class'],
      ],
      limit: 10,
    },
    { report: 'inventory/stock', perm: 'inventory.reports', title: 'Stock status' },
    {
      report: 'inventory/replenishment',
      perm: 'inventory.reports',
      title: 'Replenishment',
      rows: [
        ['sku', 'SKU', true],
        ['name', 'Item'],
        ['warehouse_name', 'Warehouse', 'phone'],
        ['on_hand', 'On hand'],
        ['reorder_level', 'Reorder level', true],
        ['suggested_order', 'Order'],
        ['estimated_cost', 'Est. cost'],
      ],
      under: { name: 'warehouse_name' },
      limit: 10,
    },
    { report: 'invoices/aging', perm: 'reports.sales', title: 'Invoice aging' },
    {
      report: 'closeout',
      perm: 'reports.sales',
      title: 'Cashier sessions',
      rows: [
        ['date', 'Day'],
        ['cashier_name', 'Cashier', 'phone'],
        ['session_id', 'Session', true],
        ['session_status', 'Status', 'phone'],
        ['total', 'Total'],
        ['expected_cash', 'Expected cash', true],
        ['counted_cash', 'Counted cash'],
        ['discrepancy', 'Discrepancy'],
      ],
      under: { date: 'cashier_name' },
      limit: 12,
      flag: (row) => Number(row.discrepancy ?? 0) !== 0,
    },
  ];

  /** The headline figures, in order: keys of the overview report's summary (docs/partner.md, "Report figures"). */
  const KPIS = ['net_sales', 'net_revenue', 'gross_profit', 'margin_percent', 'sales_count', 'average_sale', 'items_sold', 'voids'];

  window.PosPanels = { PANELS, KPIS };
})();
