import type { OpenAPIObject, OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * OpenAPI operationIds for people (issue 27 item 10): what a generated client calls each
 * operation (`client.checkout(...)`, `listSales`), stable across refactors of controllers.
 *
 * One map keyed by "METHOD /path" (without the /api/v1 prefix) names every operation, so a
 * reader sees all names in one place and controllers carry none. Three rules name the rest:
 *   - /integration/reports/X is `getIntegration...Report`, from the staff report /reports/X;
 *   - the /integrations/ aliases kept for compatibility (contract part 5) are `<name>LegacyAlias`
 *     and deprecated;
 *   - a PATCH that shares its path with a named PUT `updateX` is `patchX`.
 * An operation none of these name keeps a name derived from Nest's default (`ItemsController_x`
 * becomes `itemsX`), which `test/client/operation-names.e2e-spec.ts` reports so it gets a real
 * name here. The test also checks names are unique and every map entry still has its route.
 */
export const OPERATION_NAMES: Readonly<Record<string, string>> = {
  // auth and API applications
  'POST /auth/login': 'login',
  'POST /auth/logout': 'logout',
  'GET /auth/me': 'getCurrentUser',
  'POST /auth/two-factor/enable': 'enableTwoFactor',
  'POST /auth/two-factor/confirm': 'confirmTwoFactor',
  'POST /auth/two-factor/disable': 'disableTwoFactor',
  'GET /api-applications': 'listApiApplications',
  'POST /api-applications': 'createApiApplication',
  'GET /api-applications/{user}': 'getApiApplication',
  'POST /api-applications/{user}/tokens': 'issueApiApplicationToken',
  'DELETE /api-applications/{user}/tokens/{token}': 'revokeApiApplicationToken',
  // platform
  'GET /health': 'getHealth',
  'GET /health/live': 'getLiveness',
  'GET /health/ready': 'getReadiness',
  'GET /audit-log': 'listAuditLog',
  // stores
  'GET /stores': 'listStores',
  'GET /stores/{store}': 'getStore',
  'GET /stores/{store}/warehouses': 'listStoreWarehouses',
  'GET /warehouses': 'listWarehouses',
  'GET /warehouses/standalone': 'listStandaloneWarehouses',
  'GET /warehouses/{warehouse}': 'getWarehouse',
  'GET /payment-methods': 'listPaymentMethods',
  'GET /payment-methods/{paymentMethod}': 'getPaymentMethod',
  // catalog
  'GET /categories': 'listCategories',
  'POST /categories': 'createCategory',
  'GET /categories/{category}': 'getCategory',
  'PUT /categories/{category}': 'updateCategory',
  'DELETE /categories/{category}': 'deleteCategory',
  'GET /items': 'listItems',
  'POST /items': 'createItem',
  'GET /items/check-name': 'checkItemName',
  'GET /items/{item}': 'getItem',
  'PUT /items/{item}': 'updateItem',
  'DELETE /items/{item}': 'deleteItem',
  'GET /items/{item}/serial-numbers': 'listItemSerialNumbers',
  'GET /inventory': 'listInventory',
  'GET /inventory/movements': 'listInventoryMovements',
  'POST /inventory/adjustments': 'adjustInventory',
  'GET /price-books': 'listPriceBooks',
  'GET /price-books/{priceBook}': 'getPriceBook',
  'GET /pos/products': 'listPosProducts',
  'GET /pos/products/search': 'searchPosProducts',
  'GET /pos/products/{item}': 'getPosProduct',
  // customers and currencies
  'GET /customers': 'listCustomers',
  'POST /customers': 'createCustomer',
  'GET /customers/search': 'searchCustomers',
  'GET /customers/{customer}': 'getCustomer',
  'PUT /customers/{customer}': 'updateCustomer',
  'DELETE /customers/{customer}': 'deleteCustomer',
  'GET /customer-groups': 'listCustomerGroups',
  'POST /customer-groups': 'createCustomerGroup',
  'GET /currencies': 'listCurrencies',
  'GET /currencies/convert': 'convertCurrency',
  'GET /currencies/{currency}': 'getCurrency',
  'POST /currencies/{currency}/rates': 'setExchangeRate',
  // pricing
  'POST /pricing/cart': 'priceCart',
  'POST /pricing/calculate-result': 'priceCartTotals',
  'POST /pricing/calculate': 'priceItem',
  'POST /pricing/validate': 'validateCartPrices',
  'GET /pricing/rules': 'listActivePricingRules',
  'GET /pricing/rules-for-item/{item}': 'listItemPricingRules',
  'GET /items/{item}/price': 'getItemPrice',
  'GET /items/{item}/price-breakdown': 'getItemPriceBreakdown',
  'GET /items/{item}/applicable-price-books': 'listItemPriceBooks',
  'POST /pos/tax/calculate': 'calculateTax',
  'GET /pos/tax/info': 'getTaxInfo',
  'GET /pos/discount-limits': 'getDiscountLimits',
  'POST /pos/discount/approve': 'approveDiscount',
  'GET /pricing-rules': 'listPricingRules',
  'POST /pricing-rules': 'createPricingRule',
  'POST /pricing-rules/evaluate': 'evaluatePricingRules',
  'GET /pricing-rules/{pricingRule}': 'getPricingRule',
  'PUT /pricing-rules/{pricingRule}': 'updatePricingRule',
  'DELETE /pricing-rules/{pricingRule}': 'deletePricingRule',
  'POST /pricing-rules/{pricingRule}/toggle': 'togglePricingRule',
  'GET /bundles': 'listBundles',
  'POST /bundles': 'createBundle',
  'POST /bundles/calculate': 'calculateBundle',
  'GET /bundles/{bundle}': 'getBundle',
  'PUT /bundles/{bundle}': 'updateBundle',
  'DELETE /bundles/{bundle}': 'deleteBundle',
  'GET /bundles/{bundle}/availability': 'getBundleAvailability',
  'POST /prices/bulk': 'submitBulkPriceJob',
  'GET /prices/bulk/{job}': 'getBulkPriceJob',
  // sessions, checkout, sales
  'GET /sessions/current': 'getCurrentSession',
  'POST /sessions/open': 'openSession',
  'GET /sessions/{session}': 'getSession',
  'POST /sessions/{session}/cash-movement': 'recordCashMovement',
  'POST /sessions/{session}/close': 'closeSession',
  'POST /sessions/{session}/resume': 'resumeSession',
  'GET /sessions/{session}/summary': 'getSessionSummary',
  'POST /sessions/{session}/suspend': 'suspendSession',
  'GET /pos/session-status': 'getSessionStatus',
  'POST /pos/checkout': 'checkout',
  'POST /pos/checkout/validate': 'validateCheckout',
  'GET /sales/reviews': 'listSaleReviews',
  'POST /sales/reviews/{review}/resolve': 'resolveSaleReview',
  'GET /sales': 'listSales',
  'GET /sales/search': 'searchSales',
  'GET /sales/{sale}': 'getSale',
  'GET /sales/{sale}/receipt': 'getReceipt',
  'POST /sales/{sale}/void': 'voidSale',
  'GET /invoices': 'listInvoices',
  'GET /invoices/{invoice}': 'getInvoice',
  'POST /invoices/{invoice}/payments': 'recordInvoicePayment',
  // returns
  'GET /returns': 'listReturns',
  'POST /returns': 'createReturn',
  'GET /returns/check-sale': 'checkReturnableSale',
  'GET /returns/reasons': 'listReturnReasons',
  'GET /returns/{saleReturn}': 'getReturn',
  'POST /returns/{saleReturn}/approve': 'approveReturn',
  'POST /returns/{saleReturn}/cancel': 'cancelReturn',
  'POST /returns/{saleReturn}/process': 'processReturn',
  'POST /returns/{saleReturn}/reject': 'rejectReturn',
  // offline sync
  'GET /sync/initial': 'getInitialSync',
  'GET /sync/delta': 'getSyncDelta',
  'POST /sync/upload': 'uploadOfflineTransactions',
  'GET /sync/status': 'getSyncStatus',
  // webhooks
  'GET /webhooks': 'listWebhooks',
  'POST /webhooks': 'createWebhook',
  'GET /webhooks/event-types': 'listWebhookEventTypes',
  'GET /webhooks/{webhook}': 'getWebhook',
  'PUT /webhooks/{webhook}': 'updateWebhook',
  'DELETE /webhooks/{webhook}': 'deleteWebhook',
  'POST /webhooks/{webhook}/rotate-secret': 'rotateWebhookSecret',
  'POST /webhooks/{webhook}/ping': 'pingWebhook',
  'POST /webhooks/{webhook}/test': 'sendWebhookTest',
  'GET /webhooks/{webhook}/deliveries': 'listWebhookDeliveries',
  'GET /webhooks/{webhook}/deliveries/{delivery}': 'getWebhookDelivery',
  'POST /webhooks/{webhook}/deliveries/{delivery}/redeliver': 'redeliverWebhookDelivery',
  // partner integration (read-only feeds and the event log)
  'GET /integration/data/stores': 'listIntegrationStores',
  'GET /integration/data/stores/{store}': 'getIntegrationStore',
  'GET /integration/data/warehouses': 'listIntegrationWarehouses',
  'GET /integration/data/warehouses/{warehouse}': 'getIntegrationWarehouse',
  'GET /integration/data/items': 'listIntegrationItems',
  'GET /integration/data/customers': 'listIntegrationCustomers',
  'GET /integration/data/customers/{customer}': 'getIntegrationCustomer',
  'GET /integration/data/inventory': 'listIntegrationInventory',
  'GET /integration/sales': 'listIntegrationSales',
  'GET /integration/sales/{sale}': 'getIntegrationSale',
  'GET /integration/data/sales': 'listIntegrationDataSales',
  'GET /integration/data/sales/{sale}': 'getIntegrationDataSale',
  'GET /integration/data/invoices': 'listIntegrationInvoices',
  'GET /integration/data/invoices/{invoice}': 'getIntegrationInvoice',
  'GET /integration/data/returns': 'listIntegrationReturns',
  'GET /integration/data/returns/{saleReturn}': 'getIntegrationReturn',
  'GET /integration/events': 'listIntegrationEvents',
  // staff reports (the partner copies under /integration/reports/ follow by rule)
  'GET /reports/overview': 'getOverviewReport',
  'GET /reports/sales': 'getSalesReport',
  'GET /reports/discounts': 'getDiscountsReport',
  'GET /reports/returns': 'getReturnsReport',
  'GET /reports/closeout': 'getCloseoutReport',
  'GET /reports/profit': 'getProfitReport',
  'GET /reports/products': 'getProductsReport',
  'GET /reports/products/abc': 'getProductsAbcReport',
  'GET /reports/customers': 'getCustomersReport',
  'GET /reports/payments': 'getPaymentsReport',
  'GET /reports/stores': 'getStoresReport',
  'GET /reports/tax': 'getTaxReport',
  'GET /reports/revenue': 'getRevenueReport',
  'GET /reports/heatmap': 'getHeatmapReport',
  'GET /reports/voids': 'getVoidsReport',
  'GET /reports/return-rate': 'getReturnRateReport',
  'GET /reports/price-source': 'getPriceSourceReport',
  'GET /reports/cashier': 'getCashiersReport',
  'GET /reports/cashier/{cashier}': 'getCashierReport',
  'GET /reports/invoices': 'getInvoicesReport',
  'GET /reports/invoices/aging': 'getInvoiceAgingReport',
  'GET /reports/invoices/dso': 'getInvoiceDsoReport',
  'GET /reports/invoices/credit-notes': 'getCreditNotesReport',
  'GET /reports/invoices/funnel': 'getInvoiceFunnelReport',
  'GET /reports/inventory/overview': 'getInventoryOverviewReport',
  'GET /reports/inventory/stock': 'getInventoryStockReport',
  'GET /reports/inventory/movement': 'getInventoryMovementReport',
  'GET /reports/inventory/valuation': 'getInventoryValuationReport',
  'GET /reports/inventory/replenishment': 'getInventoryReplenishmentReport',
  'GET /reports/inventory/turns': 'getInventoryTurnsReport',
  'GET /reports/inventory/dead-stock': 'getDeadStockReport',
  'GET /reports/inventory/damage-spoilage': 'getDamageSpoilageReport',
};

const PREFIX = '/api/v1';
const LEGACY = '/integrations/';
export const LEGACY_ALIAS_SUFFIX = 'LegacyAlias';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The name of `METHOD path` (path without the prefix) by the map and its rules; undefined when none applies. */
export function operationName(method: string, path: string): string | undefined {
  const m = method.toUpperCase();
  const named = OPERATION_NAMES[`${m} ${path}`];
  if (named) return named;
  if (path.startsWith(LEGACY)) {
    const current = operationName(method, path.replace(LEGACY, '/integration/'));
    return current && `${current}${LEGACY_ALIAS_SUFFIX}`;
  }
  if (path.startsWith('/integration/reports/')) {
    const staff = OPERATION_NAMES[`${m} ${path.replace('/integration/', '/')}`];
    return staff?.replace(/^get/, 'getIntegration');
  }
  if (m === 'PATCH') {
    const put = OPERATION_NAMES[`PUT ${path}`];
    return put?.startsWith('update') ? put.replace(/^update/, 'patch') : undefined;
  }
  return undefined;
}

/** Nest's default (`ItemsController_show[1]`) as camelCase without the suffix: the fallback. */
function fallbackName(operationId: string | undefined, method: string, path: string): string {
  const source = operationId ?? `${method} ${path}`;
  const words = source
    .replace(/\[\d+\]/g, '')
    .replace(/Controller_/, ' ')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return words.map((w, i) => (i === 0 ? w[0].toLowerCase() + w.slice(1) : w[0].toUpperCase() + w.slice(1))).join('');
}

/** Sets every operation's operationId, and deprecates the /integrations/ aliases. */
export function nameOperations(document: OpenAPIObject): OpenAPIObject {
  for (const [fullPath, item] of Object.entries(document.paths)) {
    const path = fullPath.startsWith(PREFIX) ? fullPath.slice(PREFIX.length) : fullPath;
    for (const method of METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const legacy = path.startsWith(LEGACY);
      op.operationId = operationName(method, path) ?? `${fallbackName(op.operationId, method, path)}${legacy ? LEGACY_ALIAS_SUFFIX : ''}`;
      if (legacy) {
        op.deprecated = true;
        const current = path.replace(LEGACY, '/integration/');
        const note = `Deprecated alias of ${PREFIX}${current}, kept for compatibility; use that path.`;
        op.description = op.description ? `${note}\n\n${op.description}` : note;
      }
    }
  }
  return document;
}
