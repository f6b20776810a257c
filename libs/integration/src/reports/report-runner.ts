import { Abstract, Injectable, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Principal } from '@pos/identity';
import { reportResult, ReportKit } from '../application/report-kit';
import { ReportFilters, ReportScopeResolver } from '../application/report-scope';
import type { ReportResult } from '../domain/report-payload';
import type { ReportContext, ReportDefinition } from './definition';

/**
 * Runs a report definition for a caller: resolves and checks the scope once (403/422 as
 * report-scope.ts says), gives the definition its context, and wraps what it makes with the
 * columns (labelled from the metric catalogue) and meta.
 */
@Injectable()
export class ReportRunner {
  constructor(
    private readonly scopes: ReportScopeResolver,
    private readonly kit: ReportKit,
    private readonly modules: ModuleRef,
  ) {}

  async run(definition: ReportDefinition, principal: Principal, filters: ReportFilters, param?: number): Promise<ReportResult> {
    const scope = await this.scopes.resolve(principal, filters);
    const ctx: ReportContext = {
      principal,
      filters,
      scope,
      money: await this.kit.money(scope.currencies),
      kit: this.kit,
      param,
      use: <T>(type: Type<T> | Abstract<T>) => this.modules.get(type, { strict: false }),
    };
    const made = await definition.build(ctx);
    if ('data' in made) return made;
    return reportResult(scope, made.summary, made.rows, made.charts, made.note);
  }
}
