import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import {
  ActivityReportsService,
  CashierReportsService,
  CloseoutReportService,
  CustomerReportService,
  PaymentReportService,
  ProductReportsService,
  ReportFilters,
  ReturnsReportsService,
  RevenueReportsService,
  TaxReportService,
} from '@pos/integration';
import { CurrentPrincipal } from '../access/policy.decorators';
import { forAudience, INTEGRATION_REPORTS, ReportAudience, STAFF_REPORTS } from './report-audiences';
import { IdPipe } from '../http/id.pipe';
import { ReportQuery } from './reports.dto';
import { sharedReport } from './report-requests';
import { ReportDocs } from './reports.openapi';

export function filters(q: ReportQuery): ReportFilters {
  return { dateFrom: q.date_from, dateTo: q.date_to, storeId: q.store_id, warehouseId: q.warehouse_id };
}

/** Sales-side reports (contract 4.10, permissions of part 5). Definitions: README "Reports". */
function reportsRoutes(audience: ReportAudience) {
  @ApiTags(audience.tag)
  @Controller(audience.paths)
  class ReportsController {
    constructor(
      private readonly revenueReports: RevenueReportsService,
      private readonly activity: ActivityReportsService,
      private readonly returnsReports: ReturnsReportsService,
      private readonly productReports: ProductReportsService,
      private readonly customerReports: CustomerReportService,
      private readonly paymentReports: PaymentReportService,
      private readonly taxReport: TaxReportService,
      private readonly cashierReports: CashierReportsService,
      private readonly closeouts: CloseoutReportService,
    ) {}

    @Get('overview')
    @audience.read('reports.view')
    @ReportDocs(
      'Overview',
      'Headline figures per currency (net sales, refunds before tax, net revenue, COGS, gross profit, margin, net tax, total, sales, average sale, units, voids, returns); rows per store. Each figure: docs/partner.md, "Report figures".',
    )
    async overview(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.overview', p, q, () => this.revenueReports.overview(p, filters(q)));
    }

    @Get('sales')
    @audience.read('reports.sales')
    @ReportDocs(
      'Sales',
      'Sales per business day: count, units, gross, discounts, net (excl. tax), tax, total, refunds, voids. Voided sales are excluded and counted as voids.',
    )
    async sales(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.sales', p, q, () => this.revenueReports.sales(p, filters(q)));
    }

    @Get('discounts')
    @audience.read('reports.sales')
    @ReportDocs('Discounts', 'Discounts by kind (pricing rules, bundles, manual line, cart) per day; discount rate and share of discounted sales.')
    async discounts(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.discounts', p, q, () => this.activity.discounts(p, filters(q)));
    }

    @Get('returns')
    @audience.read('reports.sales')
    @ReportDocs(
      'Returns',
      'Processed returns by reason and condition (on the day processed): units, restocked units, refunds (net, tax, total), cost returned.',
    )
    async returns(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.returns', p, q, () => this.returnsReports.returns(p, filters(q)));
    }

    @Get('closeout')
    @audience.read('reports.sales')
    @ReportDocs(
      'Closeout',
      'Per business day and cashier session: the day’s sales (totals by payment method, tax, discounts, refunds), and every session closed in the period (or still open and opened in it) with its drawer: opening float, cash in/out, cash sales and refunds, change, expected vs counted cash, discrepancy, on the row of the day it closed only (drawer_figures).',
    )
    async closeout(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.closeout', p, q, () => this.closeouts.closeout(p, filters(q)));
    }

    @Get('profit')
    @audience.read('reports.profit')
    @ReportDocs(
      'Profit',
      'Revenue (net of refunds, excl. tax), COGS from the unit cost snapshotted on each sale line (net of returns), gross profit and margin per day.',
    )
    async profit(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.profit', p, q, () => this.revenueReports.profit(p, filters(q)));
    }

    @Get('products')
    @audience.read('reports.inventory')
    @ReportDocs('Products', 'Per item: units sold and returned, gross, discounts, net sales, refunds, revenue, tax, COGS, gross profit, margin; by revenue.')
    async products(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.products', p, q, () => this.productReports.products(p, filters(q)));
    }

    @Get('products/abc')
    @audience.read('reports.inventory')
    @ReportDocs('Products: ABC', 'Items ranked by revenue per currency; class A while the cumulative share is <= 80%, B <= 95%, C the rest.')
    async abc(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.abc', p, q, () => this.productReports.abc(p, filters(q)));
    }

    @Get('customers')
    @audience.read('reports.customers')
    @ReportDocs(
      'Customers',
      'Sales to named customers: customers served, share of sales, net sales (before tax) and per customer, on account, refunds; rows: the top 100 customers by total per currency.',
    )
    async customers(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.customers', p, q, () => this.customerReports.customers(p, filters(q)));
    }

    @Get('payments')
    @audience.read('reports.payments')
    @ReportDocs('Payments', 'Per payment method: payments, money taken (after change), change given, refunds, net, share; voided sales’ payments are reversed.')
    async payments(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.payments', p, q, () => this.paymentReports.payments(p, filters(q)));
    }

    @Get('stores')
    @audience.read('reports.stores')
    @ReportDocs('Stores', 'Per store: sales, units, net sales, tax, total, refunds, net revenue, gross profit, margin, average sale, voids, returns.')
    async stores(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.stores', p, q, () => this.revenueReports.stores(p, filters(q)));
    }

    @Get('tax')
    @audience.read('reports.tax')
    @ReportDocs(
      'Tax',
      'Per store and rate: taxable sales, tax collected, effective rate, refunded, net tax; the lines of tax-exempt sales in a row of their own (rate `exempt`), not in taxable sales.',
    )
    async tax(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.tax', p, q, () => this.taxReport.tax(p, filters(q)));
    }

    @Get('revenue')
    @audience.read('reports.sales')
    @ReportDocs('Revenue', 'Per day: gross sales, discounts, net sales, refunds before tax, net revenue (before tax), net tax; net revenue by store.')
    async revenue(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.revenue', p, q, () => this.revenueReports.revenue(p, filters(q)));
    }

    @Get('heatmap')
    @audience.read('reports.sales')
    @ReportDocs('Heatmap', 'Sales by weekday x hour of the day in the store’s local time (7 x 24 cells per currency).')
    async heatmap(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.heatmap', p, q, () => this.activity.heatmap(p, filters(q)));
    }

    @Get('voids')
    @audience.read('reports.sales')
    @ReportDocs('Voids', 'Voided sales (on the sale’s day) per cashier: count, total, void rate = voids / (voids + sales kept).')
    async voids(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.voids', p, q, () => this.cashierReports.voids(p, filters(q)));
    }

    @Get('return-rate')
    @audience.read('reports.sales')
    @ReportDocs('Return rate', 'Units returned / units sold and refunds / sales total, overall, per day and per returned item.')
    async returnRate(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.returnRate', p, q, () => this.returnsReports.returnRate(p, filters(q)));
    }

    @Get('price-source')
    @audience.read('reports.inventory')
    @ReportDocs(
      'Price source',
      'Sale lines by how they were priced (base, price_book, pricing_rule, bundle, manual, offline): lines, units, gross, discounts, net, shares.',
    )
    async priceSource(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.priceSource', p, q, () => this.productReports.priceSource(p, filters(q)));
    }

    @Get('cashier')
    @audience.read('reports.sales')
    @ReportDocs('Cashiers', 'Per cashier: sales, units, net, total, average sale, discounts, voids, returns processed, refunds.')
    async cashiers(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('sales.cashiers', p, q, () => this.cashierReports.cashiers(p, filters(q)));
    }

    @Get('cashier/:cashier')
    @audience.read('reports.sales')
    @ReportDocs('One cashier', 'The cashier’s figures and one row per business day. The cashier is a user id.')
    @ApiNotFoundResponse({ description: 'No user with that id (or not a positive integer)' })
    async cashier(@CurrentPrincipal() p: Principal, @Param('cashier', IdPipe) id: number, @Query() q: ReportQuery) {
      return sharedReport('sales.cashier', p, q, () => this.cashierReports.cashier(p, filters(q), id), id);
    }
  }
  return forAudience(audience, ReportsController);
}

export const ReportsController = reportsRoutes(INTEGRATION_REPORTS);
export const StaffReportsController = reportsRoutes(STAFF_REPORTS);
