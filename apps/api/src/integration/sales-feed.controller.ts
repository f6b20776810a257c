import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReadOnReplica } from '@pos/platform';
import { Principal } from '@pos/identity';
import { InvoiceService, SaleService } from '@pos/sales';
import { CurrentPrincipal, IntegrationRead } from '../access/policy.decorators';
import { dayEnd, dayStart } from '../catalog/inventory.controller';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { InvoiceListQuery, SaleListQuery } from '../sales/sales.dto';
import { Invoice, InvoiceDetail, SaleDetail, SaleSummary } from '../sales/sales.responses';
import { ApiEnvelope } from '../http/openapi';

const FEED = { default: 50, max: 200 };

/** Sales feeds (contract 2.5 and 4.9): time windows apply to created_at, in UTC days. */
@ApiTags('Integration: sales feeds')
@Controller(['integration', 'integrations'])
@ReadOnReplica() // feeds read a replica within DB_READ_MAX_LAG_SECONDS (README: Read replicas)
export class SalesFeedController {
  constructor(
    private readonly sales: SaleService,
    private readonly invoices: InvoiceService,
  ) {}

  private list(p: Principal, q: SaleListQuery) {
    return this.sales.list(
      p,
      { storeId: q.store_id, warehouseId: q.warehouse_id, status: q.status, from: dayStart(q.from ?? q.date_from), to: dayEnd(q.to ?? q.date_to), q: q.q },
      pageRequest(q, FEED),
    );
  }

  @Get('sales')
  @IntegrationRead('sales.view')
  @ApiOperation({ summary: 'Sale summaries (from/to or date_from/date_to, status, store_id, warehouse_id, q; per_page max 200)' })
  @ApiEnvelope(SaleSummary, { paginated: true })
  salesFeed(@CurrentPrincipal() p: Principal, @Query() q: SaleListQuery) {
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
  @ApiOperation({ summary: 'Sales data feed' })
  @ApiEnvelope(SaleSummary, { paginated: true })
  dataSales(@CurrentPrincipal() p: Principal, @Query() q: SaleListQuery) {
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
  @ApiOperation({ summary: 'Invoices feed (date_from, date_to, store_id, status, q)' })
  @ApiEnvelope(Invoice, { paginated: true })
  dataInvoices(@CurrentPrincipal() p: Principal, @Query() q: InvoiceListQuery) {
    return this.invoices.list(
      p,
      { storeId: q.store_id, warehouseId: q.warehouse_id, status: q.status, from: dayStart(q.date_from), to: dayEnd(q.date_to), q: q.q },
      pageRequest(q, FEED),
    );
  }

  @Get('data/invoices/:invoice')
  @IntegrationRead('invoices.view')
  @ApiOperation({ summary: 'One invoice' })
  @ApiEnvelope(InvoiceDetail)
  dataInvoice(@CurrentPrincipal() p: Principal, @Param('invoice', IdPipe) id: number) {
    return this.invoices.show(p, id);
  }
}
