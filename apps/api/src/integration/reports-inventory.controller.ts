import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import { StockFlowReportsService, StockReportsService } from '@pos/integration';
import { CurrentPrincipal } from '../access/policy.decorators';
import { forAudience, INTEGRATION_REPORTS, ReportAudience, STAFF_REPORTS } from './report-audiences';
import { filters } from './reports.controller';
import { ReportQuery } from './reports.dto';
import { sharedReport } from './report-requests';
import { ReportDocs } from './reports.openapi';

/** Inventory reports (permission inventory.reports): stock now, movements over the period. */
function reportsInventoryRoutes(audience: ReportAudience) {
  @ApiTags(audience.tag)
  @Controller(audience.paths)
  class ReportsInventoryController {
    constructor(
      private readonly stockReports: StockReportsService,
      private readonly flowReports: StockFlowReportsService,
    ) {}

    @Get('inventory/overview')
    @audience.read('inventory.reports')
    @ReportDocs(
      'Inventory: overview',
      'Stock now (items in stock, units, value at current cost, out, low, dead) per warehouse, and in the period: units sold out of these warehouses (voided sales excluded), received (receive adjustments; a transfer is not a receipt) and written off.',
    )
    async overview(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('inventory.overview', p, q, () => this.stockReports.overview(p, filters(q)));
    }

    @Get('inventory/stock')
    @audience.read('inventory.reports')
    @ReportDocs(
      'Inventory: stock',
      'Every item x warehouse level now: on hand, reorder level, status (out <= 0, low <= reorder level, in_stock), unit cost, value.',
    )
    async stock(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('inventory.stockLevels', p, q, () => this.stockReports.stockLevels(p, filters(q)));
    }

    @Get('inventory/movement')
    @audience.read('inventory.reports')
    @ReportDocs(
      'Inventory: movement',
      'Stock movements of the period by type (sale, void, return, receive, count, damage, spoilage, transfer_in/out): units in, out, net.',
    )
    async movement(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('inventory.movement', p, q, () => this.flowReports.movement(p, filters(q)));
    }

    @Get('inventory/valuation')
    @audience.read('inventory.reports')
    @ReportDocs('Inventory: valuation', 'Stock value now at each item’s current cost (base currency), per item; by category and warehouse.')
    async valuation(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('inventory.valuation', p, q, () => this.stockReports.valuation(p, filters(q)));
    }

    @Get('inventory/replenishment')
    @audience.read('inventory.reports')
    @ReportDocs(
      'Inventory: replenishment',
      'Levels at or below the reorder level: suggested order = max(reorder quantity, reorder level - on hand); sales rate over the period.',
    )
    async replenishment(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('inventory.replenishment', p, q, () => this.flowReports.replenishment(p, filters(q)));
    }

    @Get('inventory/turns')
    @audience.read('inventory.reports')
    @ReportDocs(
      'Inventory: turns',
      'Turns = COGS of the period / average inventory value ((opening + closing) / 2 at current cost), per item; days of inventory = days x average value / COGS. A return reverses its cost in the warehouse its line was sold from.',
    )
    async turns(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('inventory.turns', p, q, () => this.flowReports.turns(p, filters(q)));
    }

    @Get('inventory/dead-stock')
    @audience.read('inventory.reports')
    @ReportDocs('Inventory: dead stock', 'Item x warehouse with stock on hand and no sale in the last 90 days (or never).')
    async deadStock(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('inventory.deadStock', p, q, () => this.stockReports.deadStock(p, filters(q)));
    }

    @Get('inventory/damage-spoilage')
    @audience.read('inventory.reports')
    @ReportDocs('Inventory: damage and spoilage', 'Units written off as damaged or spoiled in the period per item, valued at current cost.')
    async damageSpoilage(@CurrentPrincipal() p: Principal, @Query() q: ReportQuery) {
      return sharedReport('inventory.damageSpoilage', p, q, () => this.flowReports.damageSpoilage(p, filters(q)));
    }
  }
  return forAudience(audience, ReportsInventoryController);
}

export const ReportsInventoryController = reportsInventoryRoutes(INTEGRATION_REPORTS);
export const StaffReportsInventoryController = reportsInventoryRoutes(STAFF_REPORTS);
