import { applyDecorators, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import { ReportDefinition, REPORTS, ReportRunner } from '@pos/integration';
import { CurrentPrincipal } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { forAudience, INTEGRATION_REPORTS, ReportAudience, STAFF_REPORTS } from './report-audiences';
import { reportFilters, reportRows, sharedReport } from './report-requests';
import { ReportQuery } from './reports.dto';
import { ReportDocs } from './reports.openapi';

type Handler = (this: { runner: ReportRunner }, p: Principal, q: ReportQuery, id?: number) => unknown;

/**
 * Mounts one report definition as a route of the controller: GET <route> with the report's
 * permission for the audience, its OpenAPI (row schema from its columns), the caller's principal,
 * the filters and, for a report about one thing, its id (404 when not a positive integer).
 */
function mount(cls: { prototype: object }, audience: ReportAudience, report: ReportDefinition): void {
  const proto = cls.prototype as Record<string, unknown>;
  const name = report.operation;
  const handler: Handler = function (p, q, id) {
    return sharedReport(report.route, p, q, () => this.runner.run(report, p, reportFilters(q), id, reportRows(q)), id ?? '');
  };
  // Guards and the route explorer find a handler's metadata by its name.
  Object.defineProperty(handler, 'name', { value: name });
  proto[name] = handler;
  Reflect.defineMetadata('design:paramtypes', report.param ? [Object, ReportQuery, Number] : [Object, ReportQuery], proto, name);
  CurrentPrincipal()(proto, name, 0);
  Query()(proto, name, 1);
  if (report.param) Param(report.param.name, IdPipe)(proto, name, 2);
  const descriptor = Object.getOwnPropertyDescriptor(proto, name) as PropertyDescriptor;
  applyDecorators(
    Get(report.route),
    audience.read(report.permission),
    ReportDocs(report),
    ...(report.param ? [ApiNotFoundResponse({ description: report.param.notFound })] : []),
  )(proto, name, descriptor);
}

/**
 * The reports of contract 4.10, one route per definition of the report registry
 * (libs/integration/src/reports): a new report file is mounted here without a line of this file.
 */
function reportsRoutes(audience: ReportAudience) {
  @ApiTags(audience.tag)
  @Controller(audience.paths)
  class ReportsController {
    constructor(readonly runner: ReportRunner) {}
  }
  for (const report of REPORTS) mount(ReportsController, audience, report);
  return forAudience(audience, ReportsController);
}

export const ReportsController = reportsRoutes(INTEGRATION_REPORTS);
export const StaffReportsController = reportsRoutes(STAFF_REPORTS);
