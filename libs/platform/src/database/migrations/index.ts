import { IdentityAndStores1763700000000 } from './1763700000000-identity-and-stores';
import { CatalogReference1763700100000 } from './1763700100000-catalog-reference';
import { Pricing1763700200000 } from './1763700200000-pricing';
import { Sales1763700300000 } from './1763700300000-sales';
import { Checkout1763700400000 } from './1763700400000-checkout';
import { CustomerTaxExemption1763800100000 } from './1763800100000-customer-tax-exemption';
import { WebhookEndpointsAndDeliveries1763800150000 } from './1763800150000-webhook-endpoints-and-deliveries';
import { ApproverLockout1763800200000 } from './1763800200000-approver-lockout';
import { ReturnsAndCreditNotes1763810000000 } from './1763810000000-returns-and-credit-notes';
import { ReportRollups1763820000000 } from './1763820000000-report-rollups';
import { SaleDayCounts1763820100000 } from './1763820100000-sale-day-counts';
import { SaleSyncedAt1763830000000 } from './1763830000000-sale-synced-at';
import { OfflineSync1763830100000 } from './1763830100000-offline-sync';
import { AuditLog1763860000000 } from './1763860000000-audit-log';
import { BulkJobSweepIndex1763880000000 } from './1763880000000-bulk-job-sweep-index';
import { HardeningMoneyAndTwoFactorStep1763900000000 } from './1763900000000-hardening-money-and-two-factor-step';
import { RollupJournal1763920000000 } from './1763920000000-rollup-journal';
import { ItemNameWords1764000000000 } from './1764000000000-item-name-words';
import { SaleCounts1764100000000 } from './1764100000000-sale-counts';
import { TaxRollupExemptRow1764200000000 } from './1764200000000-tax-rollup-exempt-row';
import { SessionsSupervisePermission1764210000000 } from './1764210000000-sessions-supervise-permission';
import { SessionPaymentsChange1764220000000 } from './1764220000000-session-payments-change';
import { SaleBooksBeforeTax1764230000000 } from './1764230000000-sale-books-before-tax';
import { OfflinePriceReviews1764431000000 } from './1764431000000-offline-price-reviews';
import { ApprovalAttempts1764440000000 } from './1764440000000-approval-attempts';
import { SessionPaymentsUser1764600000000 } from './1764600000000-session-payments-user';
import { SaleVoidedAfterClose1764610000000 } from './1764610000000-sale-voided-after-close';
import { WorkerLeases1764700000000 } from './1764700000000-worker-leases';
import { ReplicaHeartbeat1764710000000 } from './1764710000000-replica-heartbeat';
import { RollupRebuildLease1764730000000 } from './1764730000000-rollup-rebuild-lease';
import { ChangeFeedIndexes1764800000000 } from './1764800000000-change-feed-indexes';
import { OutboxEventsCreatedAt1764810000000 } from './1764810000000-outbox-events-created-at';
import { RecordVersions1764820000000 } from './1764820000000-record-versions';
import { IdempotencyKeyLength1764830000000 } from './1764830000000-idempotency-key-length';
import { StockChangeFeedIndex1764840000000 } from './1764840000000-stock-change-feed-index';
import { ItemNameWordsSort1764860000000 } from './1764860000000-item-name-words-sort';
import { ItemNamePrefixes1764890000000 } from './1764890000000-item-name-prefixes';
import { ItemNameFold1764900000000 } from './1764900000000-item-name-fold';
import { InvoicePaidLater1764870000000 } from './1764870000000-invoice-paid-later';
import { CloseoutDrawerIndexes1764880000000 } from './1764880000000-closeout-drawer-indexes';

/**
 * The one migration history, shared by SQLite and MySQL, in timestamp order (migrations.spec.ts
 * checks it against the folder). TypeORM runs pending migrations sorted by the timestamp at the
 * end of each class name, whatever this array's order, so ordering the array changed nothing
 * that ran: it only makes the list read as history. Append only; names and timestamps never
 * change (deployed databases record them).
 */
export const MIGRATIONS = [
  IdentityAndStores1763700000000,
  CatalogReference1763700100000,
  Pricing1763700200000,
  Sales1763700300000,
  Checkout1763700400000,
  CustomerTaxExemption1763800100000,
  WebhookEndpointsAndDeliveries1763800150000,
  ApproverLockout1763800200000,
  ReturnsAndCreditNotes1763810000000,
  ReportRollups1763820000000,
  SaleDayCounts1763820100000,
  SaleSyncedAt1763830000000,
  OfflineSync1763830100000,
  AuditLog1763860000000,
  BulkJobSweepIndex1763880000000,
  HardeningMoneyAndTwoFactorStep1763900000000,
  RollupJournal1763920000000,
  ItemNameWords1764000000000,
  SaleCounts1764100000000,
  TaxRollupExemptRow1764200000000,
  SessionsSupervisePermission1764210000000,
  SessionPaymentsChange1764220000000,
  SaleBooksBeforeTax1764230000000,
  OfflinePriceReviews1764431000000,
  ApprovalAttempts1764440000000,
  SessionPaymentsUser1764600000000,
  SaleVoidedAfterClose1764610000000,
  WorkerLeases1764700000000,
  ReplicaHeartbeat1764710000000,
  RollupRebuildLease1764730000000,
  ChangeFeedIndexes1764800000000,
  OutboxEventsCreatedAt1764810000000,
  RecordVersions1764820000000,
  IdempotencyKeyLength1764830000000,
  StockChangeFeedIndex1764840000000,
  ItemNameWordsSort1764860000000,
  InvoicePaidLater1764870000000,
  CloseoutDrawerIndexes1764880000000,
  ItemNamePrefixes1764890000000,
  ItemNameFold1764900000000,
];
