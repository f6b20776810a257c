import type { Type } from '@nestjs/common';
import type { Permission } from '@pos/identity';
import { ReadOnReplica } from '@pos/platform';
import { IntegrationRead, RequirePermission } from '../access/policy.decorators';

/**
 * Who a set of report routes is for. The report controllers are written once, as functions of
 * their audience, and mounted twice: for API applications under /integration(s)/reports
 * (ability integration:read) and for staff under /reports (a staff token with the permission).
 * Both call the same use cases with the caller's principal, which scopes every report to the
 * caller's stores (another store's store_id: 403).
 */
export interface ReportAudience {
  paths: string[];
  tag: string;
  /** The route policy for a report's permission. */
  read: (permission: Permission) => MethodDecorator;
  /** Prefix of the controller class name (OpenAPI operation ids must stay unique). */
  prefix: string;
}

/** Every report path also exists under the /integrations/ alias (contract 4.9, 9). */
export const INTEGRATION_REPORTS: ReportAudience = {
  paths: ['integration/reports', 'integrations/reports'],
  tag: 'Integration: reports',
  read: IntegrationRead,
  prefix: '',
};

export const STAFF_REPORTS: ReportAudience = { paths: ['reports'], tag: 'Back office: reports', read: RequirePermission, prefix: 'Staff' };

/**
 * The class of one audience, named for it. Every report only reads: it is answered from a read
 * replica when one is within DB_READ_MAX_LAG_SECONDS (its meta.as_of then says how fresh it is).
 */
export function forAudience<T extends Type>(audience: ReportAudience, cls: T): T {
  Object.defineProperty(cls, 'name', { value: `${audience.prefix}${cls.name}` });
  ReadOnReplica()(cls);
  return cls;
}
