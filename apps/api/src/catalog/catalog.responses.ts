import { defineView, s } from '../http/openapi';

/** Response schemas of the catalog context (stores, warehouses, items, categories, stock, POS lookups); currencies and price books are pricing's. */
const stockStatus = s.enum(['out', 'low', 'in_stock']);

export const Warehouse = defineView('Warehouse', {
  id: s.int(),
  name: s.string(),
  code: s.string(),
  store_id: s.nullable(s.int()),
  is_standalone: s.bool(),
  address: s.nullable(s.string()),
  is_active: s.bool(),
  updated_at: s.dateTime(),
});

export const StandaloneWarehouses = defineView('StandaloneWarehouses', {
  warehouses: s.array(Warehouse),
  count: s.int('How many standalone warehouses serve your stores'),
});

export const WarehouseDetail = defineView('WarehouseDetail', {
  ...(Warehouse.schema.properties as Record<string, never>),
  store_ids: s.array(s.int(), 'Stores it serves'),
});

export const PaymentMethod = defineView('PaymentMethod', {
  id: s.int(),
  name: s.string(),
  code: s.string(),
  type: s.string(),
  is_active: s.bool(),
  sort_order: s.int(),
});

export const Store = defineView(
  'Store',
  {
    id: s.int(),
    name: s.string(),
    code: s.string(),
    address: s.nullable(s.string()),
    phone: s.nullable(s.string()),
    email: s.nullable(s.string()),
    currency_code: s.string(),
    timezone: s.string(),
    prices_include_tax: s.bool(),
    allow_negative_stock: s.bool(),
    default_warehouse_id: s.nullable(s.int()),
    is_active: s.bool(),
    created_at: s.dateTime(),
    updated_at: s.dateTime(),
    warehouses: s.array(Warehouse, 'With with_warehouses (always on the detail)'),
    payment_methods: s.array(PaymentMethod, 'With with_payment_methods (always on the detail)'),
  },
  { optional: ['warehouses', 'payment_methods'] },
);

const category = {
  id: s.int(),
  name: s.string(),
  slug: s.nullable(s.string()),
  description: s.nullable(s.string()),
  parent_id: s.nullable(s.int()),
  is_active: s.bool(),
  sort_order: s.int(),
  created_at: s.dateTime(),
  updated_at: s.dateTime(),
};
export const Category = defineView('Category', category);
export const CategoryListEntry = defineView(
  'CategoryListEntry',
  { ...category, item_count: s.int('With with_counts'), children: s.array({ $ref: '#/components/schemas/CategoryListEntry' }, 'With tree=true') },
  { optional: ['item_count', 'children'] },
);
export const CategoryDetail = defineView('CategoryDetail', { ...category, parent: s.nullable(Category), children: s.array(Category), item_count: s.int() });

const unit = s.object({ id: s.int(), name: s.string(), factor: s.int(), price: s.nullable(s.money()), barcode: s.nullable(s.string()) });
const item = {
  id: s.int(),
  sku: s.string(),
  name: s.string(),
  description: s.nullable(s.string()),
  category_id: s.nullable(s.int()),
  category: s.nullable(s.object({ id: s.int(), name: s.string() })),
  base_price: s.money(),
  cost: s.money(),
  tax_class_id: s.nullable(s.int()),
  base_unit: s.string(),
  is_active: s.bool(),
  is_serial_tracked: s.bool(),
  reorder_level: s.int(),
  reorder_quantity: s.int(),
  barcodes: s.array(s.string()),
  units: s.array(unit),
  version: s.int('1 when created, +1 on every write; send it back (body version or If-Match) to refuse overwriting a newer edit'),
  created_at: s.dateTime(),
  updated_at: s.dateTime(),
  deleted_at: s.nullable(s.dateTime()),
};
export const Item = defineView('Item', item);
export const ItemDetail = defineView('ItemDetail', {
  ...item,
  tax_class: s.nullable(s.object({ id: s.int(), name: s.string(), code: s.string() })),
  stock: s.array(s.object({ warehouse_id: s.int(), quantity: s.int(), reorder_level: s.int(), stock_status: stockStatus }), "In the user's warehouses"),
});
export const ItemNameCheck = defineView('ItemNameCheck', { name: s.string(), available: s.bool(), existing_id: s.nullable(s.int()) });
export const SerialNumber = defineView('SerialNumber', {
  id: s.int(),
  serial: s.string(),
  status: s.enum(['in_stock', 'sold', 'returned', 'damaged', 'spoiled']),
  warehouse_id: s.nullable(s.int()),
  sale_id: s.nullable(s.int()),
});

export const InventoryRow = defineView('InventoryRow', {
  id: s.int('The stock level (one per item and warehouse); with updated_at it names the row in change mode'),
  item: s.object({ id: s.int(), sku: s.string(), name: s.string() }),
  warehouse: s.object({ id: s.int(), name: s.string(), store_id: s.nullable(s.int()) }),
  quantity: s.int(),
  reorder_level: s.int(),
  stock_status: stockStatus,
  updated_at: s.dateTime(),
});
export const StockMovement = defineView('StockMovement', {
  id: s.int(),
  item_id: s.int(),
  warehouse_id: s.int(),
  type: s.string('receive, count, damage, spoilage, transfer_out, transfer_in, sale, void, ...'),
  quantity: s.int('Signed change'),
  balance_after: s.int(),
  unit_cost: s.nullable(s.money()),
  reference_type: s.nullable(s.string()),
  reference_id: s.nullable(s.string()),
  user_id: s.nullable(s.int()),
  notes: s.nullable(s.string()),
  created_at: s.dateTime(),
});
export const Adjustment = defineView('Adjustment', {
  adjustment_id: s.string(),
  type: s.enum(['count', 'receive', 'damage', 'spoilage', 'transfer']),
  warehouse_id: s.int(),
  to_warehouse_id: s.nullable(s.int()),
  reference: s.nullable(s.string()),
  movements: s.array(StockMovement),
});

export const PosProduct = defineView('PosProduct', {
  id: s.int(),
  sku: s.string(),
  name: s.string(),
  category_id: s.nullable(s.int()),
  barcodes: s.array(s.string()),
  price: s.money('Live unit price for the store'),
  price_source: s.string(),
  base_price: s.money(),
  tax_class_id: s.nullable(s.int()),
  is_serial_tracked: s.bool(),
  base_unit: s.string(),
  units: s.array(unit),
  stock: s.object({ warehouse_id: s.nullable(s.int()), quantity: s.int(), reorder_level: s.int(), stock_status: stockStatus }),
});
