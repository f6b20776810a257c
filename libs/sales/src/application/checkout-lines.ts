import { Injectable } from '@nestjs/common';
import { ValidationFailedError } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { StockLedger, StockLine, StoreContext, StoreRecord } from '@pos/catalog';
import { PricedCartResult } from '@pos/pricing';
import { lineWarehouse, saleLineProblems } from '../domain/sale-lines';
import { CheckoutInput } from './checkout.types';

/**
 * Checkout step: the cart's lines as goods leaving warehouses. Before anything is written, each
 * line's warehouse (the store's default unless named; it must serve the store), unit and serial
 * rules (the domain's saleLineProblems), then the ledger's own checks (serials in stock, and the
 * stock itself when asked); once the sale is written, the goods leave through the ledger.
 */
@Injectable()
export class CheckoutLines {
  constructor(
    private readonly stores: StoreContext,
    private readonly ledger: StockLedger,
  ) {}

  /**
   * Each line's warehouse, after every line rule (a ValidationFailedError by field otherwise).
   * `checkStock` also refuses a line the stock cannot cover (a commit leaves that to the ledger's
   * conditional UPDATE).
   */
  async check(store: StoreRecord, input: CheckoutInput, priced: PricedCartResult, checkStock: boolean): Promise<number[]> {
    const serves = new Map<number, boolean>();
    const facts = [];
    for (const [i, r] of input.items.entries()) {
      const warehouseId = lineWarehouse(r.warehouseId, store.defaultWarehouseId);
      // One lookup per warehouse (a store's cache answers it: no statement in a warm checkout).
      if (warehouseId !== null && !serves.has(warehouseId)) serves.set(warehouseId, await this.stores.serves(warehouseId, store.id));
      facts.push({
        warehouseId,
        servesStore: warehouseId !== null && serves.get(warehouseId)!,
        qty: r.qty,
        factor: priced.units[i]?.factor ?? 1,
        baseQuantity: r.baseQuantity,
        serialTracked: priced.items.get(r.itemId)!.isSerialTracked,
        serialNumber: r.serialNumber,
      });
    }
    const errors = saleLineProblems(facts);
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    const warehouses = facts.map((f) => f.warehouseId!);
    await this.ledger.checkSale(stockLines(input, priced, warehouses), { items: priced.items, checkStock });
    return warehouses;
  }

  /** The goods leave through the ledger (an offline sale may take stock below zero: they already left). */
  async take(
    principal: Principal,
    saleId: number,
    store: StoreRecord,
    input: CheckoutInput,
    priced: PricedCartResult,
    warehouses: number[],
    offline: boolean,
  ): Promise<void> {
    await this.ledger.sell({ type: 'sale', id: String(saleId), userId: principal.userId, storeId: store.id }, stockLines(input, priced, warehouses), {
      allowNegative: store.allowNegativeStock || offline,
      items: priced.items,
    });
  }
}

/** The cart's lines in base units, from their warehouses, with their serials and costs. */
function stockLines(input: CheckoutInput, priced: PricedCartResult, warehouses: number[]): StockLine[] {
  return priced.cart.lines.map((l, i) => {
    const item = priced.items.get(l.itemId)!;
    return {
      field: `items.${i}`,
      itemId: l.itemId,
      warehouseId: warehouses[i],
      quantity: l.quantity * (priced.units[i]?.factor ?? 1),
      serialNumber: item.isSerialTracked ? (input.items[i].serialNumber ?? null) : null,
      unitCost: item.cost,
    };
  });
}
