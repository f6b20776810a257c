import { documentNumber } from '@pos/kernel';
import { Injectable } from '@nestjs/common';
import { Principal } from '@pos/identity';
import { InvoiceRepository } from './invoice.ports';
import { SaleItemRecord, SaleRepository } from './sale.ports';
import { CheckoutInput, PreparedSale, WrittenSale } from './checkout.types';

/** MySQL's DATETIME keeps no fraction: records in memory in whole seconds are exactly what a later read returns. */
export const wholeSeconds = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);

/** Checkout step: the receipt number, the sale, its lines and payments, and its invoice, as records. */
@Injectable()
export class CheckoutRecords {
  constructor(
    private readonly sales: SaleRepository,
    private readonly invoices: InvoiceRepository,
  ) {}

  /** The receipt number, the sale, its lines and payments, and its invoice. */
  async write(
    principal: Principal,
    input: CheckoutInput,
    p: PreparedSale,
    sessionId: number | null,
    now: Date,
    times: { createdAt: Date; syncedAt: Date | null },
  ): Promise<WrittenSale> {
    const at = times.createdAt;
    const number = await this.sales.nextReceiptNumber(p.store.id);
    const cart = p.priced.cart;
    const uniqueWarehouses = [...new Set(p.warehouses)];
    const sale = await this.sales.insertSale({
      storeId: p.store.id,
      warehouseId: uniqueWarehouses.length === 1 ? uniqueWarehouses[0] : null,
      sessionId,
      userId: principal.userId,
      customerId: input.customerId ?? null,
      receiptNumber: documentNumber('receipt', p.store.code, number),
      status: 'completed',
      subtotal: cart.subtotal,
      discountTotal: cart.discountTotal,
      taxTotal: cart.taxTotal,
      totalAmount: cart.total,
      pricesIncludeTax: p.store.pricesIncludeTax,
      paidAmount: p.paid,
      changeAmount: p.change,
      balanceDue: p.onAccount,
      currencyCode: p.store.currencyCode,
      reference: input.reference ?? null,
      idempotencyKey: input.idempotencyKey,
      taxExempt: p.priced.taxExempt,
      taxExemptReason: input.taxExemptReason ?? null,
      offlineCreatedAt: input.offlineCreatedAt ? wholeSeconds(input.offlineCreatedAt) : null,
      syncedAt: times.syncedAt,
      voidedAt: null,
      voidedBy: null,
      voidReason: null,
      voidedAfterClose: false,
      createdAt: at,
      updatedAt: now,
    });
    const items = cart.lines.map((l, i): Omit<SaleItemRecord, 'id'> => {
      const item = p.priced.items.get(l.itemId)!;
      const unit = p.priced.units[i];
      const r = input.items[i];
      return {
        saleId: sale.id,
        lineNo: i,
        itemId: l.itemId,
        sku: item.sku,
        name: item.name,
        unitId: unit?.id ?? null,
        unitName: unit?.name ?? null,
        factor: unit?.factor ?? 1,
        quantity: l.quantity,
        baseQuantity: l.quantity * (unit?.factor ?? 1),
        basePrice: l.basePrice,
        unitPrice: l.unitPrice,
        unitCost: item.cost * (unit?.factor ?? 1),
        priceSource: l.priceSource,
        // the books: amounts before tax in either tax mode
        gross: l.books.gross,
        ruleDiscount: l.books.ruleDiscount,
        bundleDiscount: l.books.bundleDiscount,
        manualDiscount: l.books.manualDiscount,
        cartDiscount: l.books.cartDiscount,
        discountReason: r.discountReason ?? (l.cartDiscount > 0 ? (input.cartDiscountReason ?? null) : null),
        discountApprovedBy: p.approvals[i] ?? (l.cartDiscount > 0 ? p.cartApproval : null),
        net: l.books.net,
        taxRateBp: l.taxRateBp,
        tax: l.tax,
        taxExempted: l.exemptedTax,
        total: l.total,
        warehouseId: p.warehouses[i],
        serialNumber: r.serialNumber ?? null,
        returnedQuantity: 0,
        steps: JSON.stringify(l.steps),
      };
    });
    const written = await this.sales.insertItems(items);
    const payments = await this.sales.insertPayments(
      p.tenders.map((t) => ({
        saleId: sale.id,
        paymentMethodId: t.method.id,
        methodCode: t.method.code,
        methodType: t.method.type,
        amount: t.applied,
        tendered: t.tendered,
        changeAmount: t.change,
        reference: t.reference,
        createdAt: at,
      })),
    );
    const invoice = await this.invoices.insertInvoice({
      saleId: sale.id,
      storeId: p.store.id,
      customerId: input.customerId ?? null,
      number: documentNumber('invoice', p.store.code, number),
      status: p.onAccount > 0 ? 'issued' : 'paid',
      issuedAt: at,
      dueAt: new Date(at.getTime() + p.paymentTermsDays * 86_400_000),
      amount: cart.total,
      paid: cart.total - p.onAccount,
      paidLater: 0,
      credited: 0,
      balance: p.onAccount,
      createdAt: at,
      updatedAt: now,
    });
    return { sale, items: written, payments, invoice };
  }
}
