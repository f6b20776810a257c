import { IdentityAndStores1763700000000 } from './1763700000000-identity-and-stores';
import { CatalogReference1763700100000 } from './1763700100000-catalog-reference';
import { Pricing1763700200000 } from './1763700200000-pricing';
import { Sales1763700300000 } from './1763700300000-sales';
import { Checkout1763700400000 } from './1763700400000-checkout';
import { WebhookEndpointsAndDeliveries1763800150000 } from './1763800150000-webhook-endpoints-and-deliveries';

/** The one ordered migration history, shared by SQLite and MySQL. Append only. */
export const MIGRATIONS = [
  IdentityAndStores1763700000000,
  CatalogReference1763700100000,
  Pricing1763700200000,
  Sales1763700300000,
  Checkout1763700400000,
  WebhookEndpointsAndDeliveries1763800150000,
];
