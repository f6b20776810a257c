import { Injectable } from '@nestjs/common';
import { ChangeRead, fromMinor, NotFoundError, Page, PageRequest } from '@pos/kernel';
import { AuditLog, Transactional } from '@pos/platform';
import { Principal } from '@pos/identity';
import { stockStatus, StockStatus } from '../domain/stock-status';
import { StockMovementRecord } from './catalog.records';
import { CatalogCurrency, ItemRepository, StockRepository } from './catalog.ports';
import { AdjustmentInput, StockLedger } from './stock-ledger';
import { StoreContext } from './store-context';

export interface MovementView {
  id: number;
  item_id: number;
  warehouse_id: number;
  type: string;
  quantity: number;
  balance_after: number;
  unit_cost: number | null;
  reference_type: string | null;
  reference_id: string | null;
  user_id: number | null;
  notes: string | null;
  created_at: string;
}

/** A ledger row; its unit cost is a catalog amount (`decimals`: the catalog currency's). */
export function movementView(m: StockMovementRecord, decimals: number): MovementView {
  return {
    id: m.id,
    item_id: m.itemId,
    warehouse_id: m.warehouseId,
    type: m.type,
    quantity: m.quantity,
    balance_after: m.balanceAfter,
    unit_cost: m.unitCost === null ? null : fromMinor(m.unitCost, decimals),
    reference_type: m.referenceType,
    reference_id: m.referenceId,
    user_id: m.userId,
    notes: m.notes,
    created_at: m.createdAt.toISOString(),
  };
}

/**
 * Stock per item and warehouse as the back office reads it (levels, the movement ledger, serial
 * numbers) and its adjustments, which go through the StockLedger like every other change.
 */
@Injectable()
export class InventoryService {
  constructor(
    private readonly items: ItemRepository,
    private readonly stock: StockRepository,
    private readonly stores: StoreContext,
    private readonly ledger: StockLedger,
    private readonly audit: AuditLog,
    private readonly currency: CatalogCurrency,
  ) {}

  async list(
    principal: Principal,
    filter: { storeId?: number; warehouseId?: number; itemId?: number; status?: StockStatus; change?: ChangeRead },
    page: PageRequest,
  ) {
    if (filter.storeId !== undefined) await this.stores.requireStoreFilter(principal, filter.storeId);
    if (filter.warehouseId !== undefined) await this.stores.requireWarehouse(principal, filter.warehouseId, 'forbidden');
    const result = await this.stock.inventory({ scope: principal.stores, ...filter }, page);
    return result.map((r) => ({
      id: r.id,
      item: { id: r.itemId, sku: r.sku, name: r.itemName },
      warehouse: { id: r.warehouseId, name: r.warehouseName, store_id: r.storeId },
      quantity: r.quantity,
      reorder_level: r.reorderLevel,
      stock_status: stockStatus(r.quantity, r.reorderLevel),
      updated_at: r.updatedAt.toISOString(),
    }));
  }

  async movements(
    principal: Principal,
    filter: { itemId?: number; warehouseId?: number; type?: string; from?: Date; to?: Date },
    page: PageRequest,
  ): Promise<Page<MovementView>> {
    if (filter.warehouseId !== undefined) await this.stores.requireWarehouse(principal, filter.warehouseId, 'forbidden');
    const [movements, decimals] = await Promise.all([this.stock.movements({ scope: principal.stores, ...filter }, page), this.currency.decimals()]);
    return movements.map((m) => movementView(m, decimals));
  }

  async serials(principal: Principal, itemId: number, filter: { warehouseId?: number; status?: string }) {
    const item = await this.items.find(itemId, true);
    if (!item) throw new NotFoundError('Item');
    if (filter.warehouseId !== undefined) await this.stores.requireWarehouse(principal, filter.warehouseId, 'forbidden');
    const rows = await this.stock.serials(itemId, filter);
    const visible = new Set<number>();
    for (const id of new Set(rows.map((r) => r.warehouseId).filter((w): w is number => w !== null))) {
      if (await this.stores.canSeeWarehouse(principal, id)) visible.add(id);
    }
    return rows
      .filter((s) => s.warehouseId === null || visible.has(s.warehouseId))
      .map((s) => ({ id: s.id, serial: s.serial, status: s.status, warehouse_id: s.warehouseId, sale_id: s.saleId }));
  }

  @Transactional()
  async adjust(principal: Principal, input: AdjustmentInput) {
    const r = await this.ledger.adjust(principal, input);
    const decimals = await this.currency.decimals();
    await this.audit.record({
      action: 'stock.adjusted',
      target: { type: 'stock_adjustment', id: r.adjustmentId },
      storeId: r.from.storeId,
      after: {
        type: input.type,
        warehouse_id: r.from.id,
        to_warehouse_id: r.to?.id ?? null,
        reference: input.reference ?? null,
        lines: r.movements.map((m) => ({ item_id: m.itemId, warehouse_id: m.warehouseId, type: m.type, quantity: m.quantity, balance_after: m.balanceAfter })),
      },
    });
    return {
      adjustment_id: r.adjustmentId,
      type: input.type,
      warehouse_id: r.from.id,
      to_warehouse_id: r.to?.id ?? null,
      reference: input.reference ?? null,
      movements: r.movements.map((m) => movementView(m, decimals)),
    };
  }
}
