import { DemoModule } from '@pos/demo';
import { IdentityModule } from '@pos/identity';
import { IntegrationModule } from '@pos/integration';
import { PricingModule } from '@pos/pricing';
import { ReturnsModule } from '@pos/returns';
import { WebhooksModule } from '@pos/webhooks';

export { DemoDataService } from '@pos/demo';
export { RollupRebuildService } from '@pos/integration';
export { ItemService } from '@pos/catalog';
export { SaleFactsReader } from '@pos/sales';
export { DataSource } from 'typeorm';

/**
 * Every feature module, for the commands that reach across contexts (the demo and volume seeds,
 * the report rebuild, the name index). Reports reach the sessions context, whose SessionService
 * needs the refund totals ReturnsModule binds.
 */
export const ALL_FEATURES = [IdentityModule, PricingModule, IntegrationModule, ReturnsModule, DemoModule, WebhooksModule];
