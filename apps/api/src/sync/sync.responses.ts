import { Customer } from '../customers/customers.responses';
import { defineView, s } from '../http/openapi';
import { SaleReviewView } from '../sales/sale-reviews.responses';

/** Response shapes of /sync (the `data` of the envelope). Amounts are in the store currency's decimals. */

const SyncItemUnit = defineView('SyncItemUnit', {
  id: s.int(),
  name: s.string(),
  factor: s.int(),
  price: s.nullable(s.money("The unit's own price; null: factor x price")),
  barcode: s.nullable(s.string()),
});

const SyncItemStock = defineView('SyncItemStock', {
  warehouse_id: s.int(),
  quantity: s.int('Base units on hand (may be negative after offline sales)'),
});

const SyncItem = defineView('SyncItem', {
  id: s.int(),
  sku: s.string(),
  name: s.string(),
  description: s.nullable(s.string()),
  category_id: s.nullable(s.int()),
  base_price: s.money('Catalog base price (store currency)'),
  price: s.money('Live price of one unit in this store when read (price book, rules); the terminal re-prices carts with the reference sets'),
  price_source: s.enum(['base', 'price_book', 'pricing_rule']),
  tax_class_id: s.nullable(s.int()),
  tax_rate: s.percent("The class's tax rate in this store, percent"),
  base_unit: s.string(),
  is_serial_tracked: s.bool(),
  reorder_level: s.int(),
  barcodes: s.array(s.string()),
  units: s.array(SyncItemUnit),
  stock: s.array(SyncItemStock, "One row per warehouse serving the store (the store's own and standalone ones)"),
  updated_at: s.dateTime(),
});

const SyncCategory = defineView('SyncCategory', {
  id: s.int(),
  parent_id: s.nullable(s.int()),
  name: s.string(),
  slug: s.nullable(s.string()),
  description: s.nullable(s.string()),
  is_active: s.bool(),
  sort_order: s.int(),
  updated_at: s.dateTime(),
});

const SyncPriceBookEntry = defineView('SyncPriceBookEntry', {
  id: s.int(),
  price_book_id: s.int(),
  item_id: s.int(),
  price: s.money('Price of one base unit'),
  min_quantity: s.int(),
  updated_at: s.dateTime(),
});

const SyncRecords = defineView('SyncRecords', {
  categories: s.array(SyncCategory),
  price_book_entries: s.array(SyncPriceBookEntry),
  customers: s.array(Customer, 'As GET /customers/{id} shows them'),
  items: s.array(SyncItem, 'Sellable items (active, not deleted)'),
});

const SyncDeleted = defineView('SyncDeleted', {
  categories: s.array(s.int()),
  customers: s.array(s.int()),
  items: s.array(s.int(), 'Deleted or deactivated items'),
});

const SyncWarehouse = defineView('SyncWarehouse', {
  id: s.int(),
  name: s.string(),
  code: s.string(),
  store_id: s.nullable(s.int()),
  is_standalone: s.bool(),
});

const SyncStore = defineView('SyncStore', {
  id: s.int(),
  name: s.string(),
  code: s.string(),
  address: s.nullable(s.string()),
  phone: s.nullable(s.string()),
  email: s.nullable(s.string()),
  currency: s.string(),
  timezone: s.string(),
  prices_include_tax: s.bool(),
  allow_negative_stock: s.bool(),
  default_warehouse_id: s.nullable(s.int()),
  receipt_header: s.nullable(s.string()),
  receipt_footer: s.nullable(s.string()),
  warehouses: s.array(SyncWarehouse, "The store's own warehouses and the standalone ones serving it"),
  updated_at: s.dateTime(),
});

const SyncCurrency = defineView('SyncCurrency', {
  code: s.string(),
  name: s.string(),
  symbol: s.string(),
  decimals: s.int('Every amount of the download has these decimals'),
});

const SyncDiscountLimits = defineView('SyncDiscountLimits', {
  max_discount_percent: s.percent(),
  max_discount_amount: s.money(),
  can_approve_discounts: s.bool(),
});

// The reference sets the terminal prices with travel as the API shows them elsewhere; typed loosely
// here (objects) as before this file, so a field added there never makes a sync answer undocumented.
const objects = (description?: string) => s.array({ type: 'object' }, description);

const SyncReference = defineView('SyncReference', {
  store: SyncStore,
  currency: SyncCurrency,
  discount_limits: { allOf: [SyncDiscountLimits.ref], description: "The user's limits (role, or the user's own overrides)" },
  payment_methods: objects('Payment methods of the store (id, code, name, type, sort_order)'),
  tax: {
    type: 'object',
    additionalProperties: true,
    description: 'prices_include_tax, rounding, exemption, tax_classes (id, code, name, rate, rates) in this store',
  },
  customer_groups: objects(),
  price_books: objects('Active books in the store currency that apply here (with customer_group_ids)'),
  pricing_rules: objects('Active pricing rules for the store (as GET /pricing-rules shows them)'),
  bundles: objects('Active bundles sold in the store (as GET /bundles shows them)'),
});

/** One page of GET /sync/initial or /sync/delta. */
export const SyncPage = defineView('SyncPage', {
  sync_token: s.string('Opaque; fixed when the download started; keep it after the last page and pass it as since to /sync/delta'),
  server_time: s.dateTime(),
  store_id: s.int(),
  since: s.nullable(s.dateTime('Delta: changes are read from here (token time less the overlap)')),
  complete: s.bool('true on the last page'),
  next_cursor: s.nullable(s.string('Pass as cursor for the next page; null on the last page')),
  reference: {
    ...s.nullable(SyncReference),
    description: 'First page only: the whole reference sets, replacing the device copy (a delta gives null when they did not change)',
  },
  records: { allOf: [SyncRecords.ref], description: 'Records to upsert by id' },
  deleted: { allOf: [SyncDeleted.ref], description: 'Ids to remove (empty on an initial download); an id may repeat' },
});

const fieldErrors = s.map(s.array(s.string()));

const SyncUploadResult = defineView('SyncUploadResult', {
  index: s.int('Position in the request'),
  idempotency_key: s.nullable(s.string()),
  type: s.nullable(s.string()),
  status: s.enum(['accepted', 'duplicate', 'rejected']),
  original_status: s.nullable(s.enum(['accepted', 'rejected'], "A duplicate's original outcome")),
  id: s.nullable(s.int('The sale, customer or cash movement id')),
  receipt_number: s.nullable(s.string('Sales only')),
  record: {
    ...s.nullable({ type: 'object', additionalProperties: true }),
    description: 'Summary of the created record (a sale: id, receipt_number, total_amount, session_id, created_at, synced_at)',
  },
  code: s.nullable(s.string('Stable code of a rejection (validation_failed, total_mismatch, offline_time_refused, idempotency_key_reused, in_flight, ...)')),
  message: s.nullable(s.string()),
  errors: { ...s.nullable(fieldErrors), description: 'Field -> messages, keyed within the transaction (data.items.0.qty, offline_created_at)' },
  review: {
    ...s.nullable(SaleReviewView),
    description: "A sale accepted but flagged for a manager's review (its price below the server's reference beyond the cashier's limits); null otherwise",
  },
});

/** The answer of POST /sync/upload. */
export const SyncUploadReport = defineView('SyncUploadReport', {
  store_id: s.int(),
  server_time: s.dateTime(),
  received: s.int(),
  accepted: s.int(),
  duplicate: s.int(),
  rejected: s.int(),
  results: s.array(SyncUploadResult, 'One per transaction, in the order sent'),
});

const SyncRejectedUpload = defineView('SyncRejectedUpload', {
  idempotency_key: s.string(),
  type: s.string(),
  offline_created_at: s.nullable(s.dateTime()),
  received_at: s.dateTime(),
  message: s.nullable(s.string()),
  errors: s.nullable(fieldErrors),
});

const SyncDevice = defineView('SyncDevice', {
  name: s.string("The token's device name (device_name at login)"),
  last_initial_sync_at: s.nullable(s.dateTime()),
  last_delta_sync_at: s.nullable(s.dateTime()),
  last_upload_at: s.nullable(s.dateTime()),
});

const SyncUploadCounts = defineView('SyncUploadCounts', {
  accepted: s.int(),
  duplicate: s.int(),
  rejected: s.int(),
  pending_rejections: s.int('Transactions of this device still rejected (not since accepted under their key)'),
});

/** The answer of GET /sync/status. */
export const SyncStatus = defineView('SyncStatus', {
  server_time: s.dateTime(),
  store_id: s.int(),
  device: SyncDevice,
  uploads: SyncUploadCounts,
  rejected: s.array(SyncRejectedUpload, 'Newest first, at most 100'),
});
