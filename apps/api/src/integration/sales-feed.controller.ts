import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig, ReadOnReplica } from '@pos/platform';
import { Clock } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { InvoiceService, SaleService } from '@pos/sales';
import { CurrentPrincipal, IntegrationRead } from '../access/policy.decorators';
import { dayEnd, dayStart } from '../http/date-range';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { Invoice, InvoiceDetail, SaleDetail, SaleSummary } from '../sales/sales.responses';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { ApiFeedEnvelope, CHANGE_MODE_422, ChangeMode } from './change-mode';
import { InvoicesFeedQuery, SalesFeedQuery } from './feeds.dto';

const FEED = { default: 50, max: 200 };

/**
 * Sales feeds (contract 2.5 and 4.9): time windows apply to created_at, in UTC days. With
 * updated_since or cursor, change mode (issue 26, ./change-mode.ts).
 */
@ApiTags('Integration: sales feeds')
@Controller(['integration', 'integrations'])
@ReadOnReplica() // feeds read a replica within DB_READ_MAX_LAG_SECONDS (README: Read replicas)
export class SalesFeedController {
  private readonly changes: ChangeMode;

  constructor(
    private readonly sales: SaleService,
    private readonly invoices: InvoiceService,
    @Inject(APP_CONFIG) config: AppConfig,
    clock: Clock,
  ) {
    this.changes = new ChangeMode(config, clock);
  }

  private async list(p: Principal, q: SalesFeedQuery) {
    const page = pageRequest(q, FEED);
    const change = this.changes.read('sales', q, page.perPage);
    const result = await this.sales.list(
      p,
      {
        storeId: q.store_id,
        warehouseId: q.warehouse_id,
        status: q.status,
        from: dayStart(q.from ?? q.date_from),
        to: dayEnd(q.to ?? q.date_to),
        q: q.q,
        // in the shared query (SaleListQuery, documented): with unknown parameters refused, no longer silently ignored
        userId: q.user_id,
        customerId: q.customer_id,
        sessionId: q.session_id,
        change,
      },
      page,
    );
    return change ? this.changes.page('sales', change, page.perPage, result) : result;
  }

  @Get('sales')
  @IntegrationRead('sales.view')
  @ApiOperation({
    summary: 'Sale summaries (from/to or date_from/date_to, status, store_id, warehouse_id, q; per_page max 200); change mode with updated_since or cursor',
  })
  @ApiFeedEnvelope(SaleSummary, 'A page of sales, newest first')
  @ApiErrors([422, `A filter is malformed; ${CHANGE_MODE_422}`])
  salesFeed(@CurrentPrincipal() p: Principal, @Query() q: SalesFeedQuery) {
    return this.list(p, q);
  }

  @Get('sales/:sale')
  @IntegrationRead('sales.view')
  @ApiOperation({ summary: 'Sale detail with items and payments' })
  @ApiEnvelope(SaleDetail)
  sale(@CurrentPrincipal() p: Principal, @Param('sale', IdPipe) id: number) {
    return this.sales.show(p, id);
  }

  @Get('data/sales')
  @IntegrationRead('sales.view')
  @ApiOperation({ summary: 'Sales data feed (as /integration/sales); change mode with updated_since or cursor' })
  @ApiFeedEnvelope(SaleSummary, 'A page of sales, newest first')
  @ApiErrors([422, `A filter is malformed; ${CHANGE_MODE_422}`])
  dataSales(@CurrentPrincipal() p: Principal, @Query() q: SalesFeedQuery) {
    return this.list(p, q);
  }

  @Get('data/sales/:sale')
  @IntegrationRead('sales.view')
  @ApiOperation({ summary: 'One sale' })
  @ApiEnvelope(SaleDetail)
  dataSale(@CurrentPrincipal() p: Principal, @Param('sale', IdPipe) id: number) {
    return this.sales.show(p, id);
  }

  @Get('data/invoices')
  @IntegrationRead('invoices.view')
  @ApiOperation({ summary: 'Invoices feed (date_from, date_to, store_id, status, q); change mode with updated_since or cursor' })
  @ApiFeedEnvelope(Invoice, 'A page of invoices, newest first')
  @ApiErrors([422, `A filter is malformed; ${CHANGE_MODE_422}`])
  async dataInvoices(@CurrentPrincipal() p: Principal, @Query() q: InvoicesFeedQuery) {
    const page = pageRequest(q, FEED);
    const change = this.changes.read('invoices', q, page.perPage);
    const result = await this.invoices.list(
      p,
      { storeId: q.store_id, warehouseId: q.warehouse_id, status: q.status, from: dayStart(q.date_from), to: dayEnd(q.date_to), q: q.q, change },
      page,
    );
    return change ? this.changes.page('invoices', change, page.perPage, result) : result;
  }

  @Get('data/invoices/:invoice')
  @IntegrationRead('invoices.view')
  @ApiOperation({ summary: 'One invoice' })
  @ApiEnvelope(InvoiceDetail)
  dataInvoice(@CurrentPrincipal() p: Principal, @Param('invoice', IdPipe) id: number) {
    return this.invoices.show(p, id);
  }
}
