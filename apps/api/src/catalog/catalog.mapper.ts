import { AdjustmentInput, CategoryInput, ItemInput } from '@pos/catalog';
import { amountToMinor, FieldErrorCollector } from '@pos/kernel';
import { AdjustmentDto, CreateCategoryDto, CreateItemDto, ItemWriteDto, UpdateCategoryDto } from './catalog.dto';

/**
 * The catalog endpoints' request bodies to the use cases' inputs. Amounts are in the catalog
 * currency (its `decimals`: more is a 422 on the field); codes and barcodes are trimmed.
 */

/** The item body to the use case's input. */
export function itemInput(body: ItemWriteDto | CreateItemDto, decimals: number): ItemInput {
  const errors = new FieldErrorCollector(); // every faulty amount named at once
  const money = (v: number, field: string) => errors.take(() => amountToMinor(v, decimals, field));
  const input: ItemInput = {
    sku: body.sku,
    name: body.name,
    description: body.description,
    categoryId: body.category_id,
    basePrice: body.base_price === undefined ? undefined : money(body.base_price, 'base_price'),
    cost: body.cost === undefined ? undefined : money(body.cost, 'cost'),
    taxClassId: body.tax_class_id,
    baseUnit: body.base_unit,
    isActive: body.is_active,
    isSerialTracked: body.is_serial_tracked,
    reorderLevel: body.reorder_level,
    reorderQuantity: body.reorder_quantity,
    barcodes: body.barcodes?.map((b) => b.trim()),
    units: body.units?.map((u, i) => ({
      name: u.name.trim(),
      factor: u.factor,
      price: u.price === undefined ? null : money(u.price, `units.${i}.price`),
      barcode: u.barcode?.trim() || null,
    })),
    warehouseReorderLevels: body.warehouse_reorder_levels?.map((w) => ({ warehouseId: w.warehouse_id, reorderLevel: w.reorder_level ?? null })),
  };
  errors.check();
  return input;
}

/** A new item: the body's input with what creating requires (SKU, name, base price). */
export function itemCreateInput(body: CreateItemDto, decimals: number): ItemInput & { sku: string; name: string; basePrice: number } {
  const input = itemInput(body, decimals);
  return { ...input, sku: body.sku, name: body.name, basePrice: input.basePrice! };
}

/** A category update: only the fields given (parent_id null moves it to the top level). */
export function categoryInput(body: UpdateCategoryDto): CategoryInput {
  return { name: body.name, parentId: body.parent_id, description: body.description, isActive: body.is_active, sortOrder: body.sort_order };
}

/** A new category: without parent_id it is top-level. */
export function categoryCreateInput(body: CreateCategoryDto): CategoryInput & { name: string } {
  return { name: body.name, parentId: body.parent_id ?? null, description: body.description, isActive: body.is_active, sortOrder: body.sort_order };
}

/** A stock adjustment; unit costs in the catalog currency, serial numbers trimmed. */
export function adjustmentInput(body: AdjustmentDto, decimals: number): AdjustmentInput {
  const errors = new FieldErrorCollector(); // every faulty unit cost named at once
  const input: AdjustmentInput = {
    type: body.type,
    warehouseId: body.warehouse_id,
    toWarehouseId: body.to_warehouse_id,
    reference: body.reference,
    notes: body.notes,
    items: body.items.map((l, i) => ({
      itemId: l.item_id,
      quantity: l.quantity,
      unitCost: l.unit_cost === undefined ? undefined : errors.take(() => amountToMinor(l.unit_cost!, decimals, `items.${i}.unit_cost`)),
      serialNumbers: l.serial_numbers?.map((s) => s.trim()),
      notes: l.notes,
    })),
  };
  errors.check();
  return input;
}

/** GET /warehouses/standalone: an object, as the contract gives it, with the list and its full count. */
export function standaloneWarehousesView<T>(page: { items: T[]; total: number }) {
  return { warehouses: page.items, count: page.total };
}
