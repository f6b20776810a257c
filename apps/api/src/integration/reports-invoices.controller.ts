import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import { InvoiceReportsService } from '@pos/integration';
import { CurrentPrincipal } from '../access/policy.decorators';
import { forAudience, INTEGRATION_REPORTS, ReportAudience, STAFF_REPORTS } from './report-audiences';
import { filters } from './reports.controller';
import { ReportQuery } from './reports.dto';
import { sharedReport } from './report-requests';
import { ReportDocs } from './reports.openapi';

/** Invoice reports (permission reports.sales). */
function reportsInvoicesRoutes(audience: ReportAudience) {
  @ApiTags(audience.tag)
  @Controller(audience.paths)
  class ReportsInvoicesController {
    constructor(private readonly reports: InvoiceReportsService) {}

    @Get('invoices')
    @audience.read('reports.sales')
    @ReportDocs('Invoices', 'Invoices issued per day: amount, paid at the till, on account, void; the period’s invoices by status now (open, past due).')
    async invoices(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('invoices.invoices', p, q, () => this.reports.invoices(p, filters(q)));
    }

    @Get('invoices/aging')
    @audience.read('reports.sales')
    @ReportDocs('Invoices: aging', 'Open balances now by days since issue (0-30, 31-60, 61-90, 91-120, 120+) per customer; invoices issued up to date_to.')
    async aging(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('invoices.aging', p, q, () => this.reports.aging(p, filters(q)));
    }

    @Get('invoices/dso')
    @audience.read('reports.sales')
    @ReportDocs(
      'Invoices: DSO',
      'Days sales outstanding = open receivables / credit (on-account) sales of the period x days in the period, per store and currency.',
    )
    async dso(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('invoices.dso', p, q, () => this.reports.dso(p, filters(q)));
    }

    @Get('invoices/credit-notes')
    @audience.read('reports.sales')
    @ReportDocs('Invoices: credit notes', 'Credit notes issued by processed returns in the period: number, sale, return, customer, amount.')
    async creditNotes(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('invoices.creditNotes', p, q, () => this.reports.creditNotes(p, filters(q)));
    }

    @Get('invoices/funnel')
    @audience.read('reports.sales')
    @ReportDocs(
      'Invoices: funnel',
      'On-account invoices issued in the period: voided, received a payment after the sale, paid in full (a credit note cancelling the invoice whole is not a payment), unpaid, partially paid, past due (state now).',
    )
    async funnel(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('invoices.funnel', p, q, () => this.reports.funnel(p, filters(q)));
    }
  }
  return forAudience(audience, ReportsInvoicesController);
}

export const ReportsInvoicesController = reportsInvoicesRoutes(INTEGRATION_REPORTS);
export const StaffReportsInvoicesController = reportsInvoicesRoutes(STAFF_REPORTS);
