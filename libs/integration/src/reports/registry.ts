import type { ReportDefinition } from './definition';
import overview from './overview';
import sales from './sales';
import discounts from './discounts';
import returns from './returns';
import closeout from './closeout';
import profit from './profit';
import products from './products';
import productsAbc from './products/abc';
import customers from './customers';
import payments from './payments';
import stores from './stores';
import tax from './tax';
import revenue from './revenue';
import heatmap from './heatmap';
import voids from './voids';
import returnRate from './return-rate';
import priceSource from './price-source';
import cashier from './cashier';
import cashierOne from './cashier/one';
import inventoryOverview from './inventory/overview';
import inventoryStock from './inventory/stock';
import inventoryMovement from './inventory/movement';
import inventoryValuation from './inventory/valuation';
import inventoryReplenishment from './inventory/replenishment';
import inventoryTurns from './inventory/turns';
import inventoryDeadStock from './inventory/dead-stock';
import inventoryDamageSpoilage from './inventory/damage-spoilage';
import invoices from './invoices';
import invoicesAging from './invoices/aging';
import invoicesDso from './invoices/dso';
import invoicesCreditNotes from './invoices/credit-notes';
import invoicesFunnel from './invoices/funnel';

/**
 * Every report, in the order the docs list them. A report is one file under reports/ named after
 * its route; adding one here mounts it for staff (/reports/...) and partners
 * (/integration/reports/...), documents it in OpenAPI and lists it in the docs' report table.
 */
export const REPORTS: readonly ReportDefinition[] = [
  overview,
  sales,
  discounts,
  returns,
  closeout,
  profit,
  products,
  productsAbc,
  customers,
  payments,
  stores,
  tax,
  revenue,
  heatmap,
  voids,
  returnRate,
  priceSource,
  cashier,
  cashierOne,
  invoices,
  invoicesAging,
  invoicesDso,
  invoicesCreditNotes,
  invoicesFunnel,
  inventoryOverview,
  inventoryStock,
  inventoryMovement,
  inventoryValuation,
  inventoryReplenishment,
  inventoryTurns,
  inventoryDeadStock,
  inventoryDamageSpoilage,
];
