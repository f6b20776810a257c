import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Principal } from '@pos/identity';
import { InvoiceService, SaleReceipts, SaleService } from '@pos/sales';
import { ReturnService } from '@pos/returns';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { dayEnd, dayStart } from '../http/date-range';
import { envelope } from '../http/envelope';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { InvoiceListQuery, InvoicePaymentDto, ReceiptQuery, SaleListQuery, SaleSearchQuery, VoidDto } from './sales.dto';
import { saleWithReturnsView } from './sales.mapper';
import { Invoice, InvoiceDetail, Receipt, SaleDetail, SaleSummary } from './sales.responses';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { IdempotentCreate } from '../http/idempotency.decorator';

@ApiTags('Sales and invoices')
@Controller()
export class SalesController {
  constructor(
    private readonly sales: SaleService,
    private readonly receipts: SaleReceipts,
    private readonly invoices: InvoiceService,
    private readonly returns: ReturnService,
  ) {}

  @Get('sales')
  @RequirePermission('sales.view')
  @ApiOperation({ summary: 'Sales (store, status, date range, cashier, customer, session filters; paginated)' })
  @ApiEnvelope(SaleSummary, { paginated: true })
  list(@CurrentPrincipal() p: Principal, @Query() q: SaleListQuery) {
    return this.sales.list(
      p,
      {
        storeId: q.store_id,
        warehouseId: q.warehouse_id,
        status: q.status,
        from: dayStart(q.date_from ?? q.from),
        to: dayEnd(q.date_to ?? q.to),
        userId: q.user_id,
        customerId: q.customer_id,
        sessionId: q.session_id,
        q: q.q,
      },
      pageRequest(q, { default: 50, max: 100 }),
    );
  }

  @Get('sales/search')
  @RequirePermission('sales.view')
  @ApiOperation({ summary: 'Find sales by receipt number, reference, customer (name, email, phone) or item barcode' })
  @ApiEnvelope(SaleSummary, { paginated: true })
  search(@CurrentPrincipal() p: Principal, @Query() q: SaleSearchQuery) {
    return this.sales.list(p, { q: q.q, storeId: q.store_id }, pageRequest(q, { default: 50, max: 100 }));
  }

  @Get('sales/:sale')
  @RequirePermission('sales.view')
  @ApiOperation({ summary: 'A sale: lines with price source, discounts, tax and returned quantity; payments; invoice; its returns' })
  @ApiEnvelope(SaleDetail)
  async show(@CurrentPrincipal() p: Principal, @Param('sale', IdPipe) id: number) {
    const sale = await this.sales.show(p, id);
    return saleWithReturnsView(sale, await this.returns.ofSale(p, id));
  }

  @Get('sales/:sale/receipt')
  @RequirePermission('sales.view')
  @ApiOperation({
    summary: 'Receipt data (store header, lines, taxes, payments, change, footer); ?format=text for 40 columns',
    description:
      "Amounts add up as the books do: subtotal - discount_total + tax_total = total, amounts before tax in either tax mode (unit_price is the shelf price). `date` is the store's wall clock with its offset (`time_zone`).",
  })
  @ApiEnvelope(Receipt, { description: 'The receipt; with format=text, a 40-column text/plain receipt instead' })
  async receipt(@CurrentPrincipal() p: Principal, @Param('sale', IdPipe) id: number, @Query() q: ReceiptQuery, @Res() res: Response) {
    if (q.format === 'text') {
      // The text first: an error (404) must still answer in the JSON envelope, not as text/plain.
      const text = await this.receipts.receiptText(p, id);
      res.type('text/plain; charset=utf-8').send(text);
      return;
    }
    res.json(envelope(await this.receipts.receipt(p, id)));
  }

  @Post('sales/:sale/void')
  @HttpCode(200)
  @RequirePermission('sales.void')
  @ApiOperation({
    summary: 'Void a completed sale with no returns: restock, reverse payments, sale.voided',
    description:
      '409 sale_not_voidable (not completed), sale_has_returns (returns taken or open), invoice_has_payments (its invoice was paid on after the sale: take a return, which refunds that payment)',
  })
  @ApiEnvelope(SaleDetail)
  @ApiErrors(409)
  void(@CurrentPrincipal() p: Principal, @Param('sale', IdPipe) id: number, @Body() body: VoidDto) {
    return this.sales.void(p, id, body.reason);
  }

  @Get('invoices')
  @RequirePermission('invoices.view')
  @ApiOperation({ summary: 'Invoices (store, status incl. overdue, dates, number)' })
  @ApiEnvelope(Invoice, { paginated: true })
  invoiceList(@CurrentPrincipal() p: Principal, @Query() q: InvoiceListQuery) {
    return this.invoices.list(
      p,
      { storeId: q.store_id, warehouseId: q.warehouse_id, status: q.status, from: dayStart(q.date_from), to: dayEnd(q.date_to), q: q.q },
      pageRequest(q, { default: 50, max: 100 }),
    );
  }

  @Get('invoices/:invoice')
  @RequirePermission('invoices.view')
  @ApiOperation({ summary: 'An invoice with its payments' })
  @ApiEnvelope(InvoiceDetail)
  invoice(@CurrentPrincipal() p: Principal, @Param('invoice', IdPipe) id: number) {
    return this.invoices.show(p, id);
  }

  @Post('invoices/:invoice/payments')
  @IdempotentCreate()
  @HttpCode(201)
  @RequirePermission('invoices.manage')
  @ApiOperation({ summary: 'Record a later payment of an on-account balance' })
  @ApiEnvelope(InvoiceDetail, { status: 201 })
  @ApiErrors(409)
  pay(@CurrentPrincipal() p: Principal, @Param('invoice', IdPipe) id: number, @Body() b: InvoicePaymentDto) {
    return this.invoices.pay(p, id, { code: b.payment_method_code, amount: b.amount, reference: b.reference });
  }
}
