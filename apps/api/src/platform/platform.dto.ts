import { PageQueryDto } from '../http/page-query.dto';
import { OptionalDate, OptionalInt, OptionalString } from '../http/validators';

/** GET /audit-log filters. */
export class AuditLogQuery extends PageQueryDto {
  @OptionalInt() store_id?: number;
  @OptionalInt({ description: 'Who did it (user id; the CLI operator is 0)' }) user_id?: number;
  @OptionalString({ max: 64, description: 'An action (`sale.voided`) or a family of actions (`sale.` or `sale.*`)' }) action?: string;
  @OptionalString({ max: 64, description: 'Target type (sale, return, pricing_rule, session, user, token, ...)' }) target_type?: string;
  @OptionalString({ max: 64, description: 'Target id (with target_type)' }) target_id?: string;
  @OptionalDate('From this UTC day') date_from?: string;
  @OptionalDate('To this UTC day (inclusive)') date_to?: string;
}
