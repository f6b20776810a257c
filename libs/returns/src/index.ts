/**
 * The returns context's published interface: returns, refunds and credit notes (their use
 * cases and views), the return events (integration events for webhooks; `ReturnProcessedFacts`,
 * the domain facts in minor units report rollups subscribe to), and the domain vocabulary
 * (states, conditions) the HTTP edge validates against.
 */
export { ReturnsModule } from './returns.module';
export { ReturnService } from './application/return.service';
export { ReturnWorkflowService } from './application/return-workflow.service';
export type { CreateReturnInput, ReturnLineInput } from './application/return-workflow.service';
export { ReturnViews } from './application/return.views';
export { ReturnFactsReader } from './application/return-facts.reader';
export type { ReturnDetailView, ReturnSummaryView } from './application/return.views';
export * from './application/return.events';
export * from './application/return.facts';
export { RETURN_STATUSES } from './domain/return-status';
export type { ReturnStatus } from './domain/return-status';
export { RETURN_CONDITIONS } from './domain/return-condition';
export type { ReturnCondition } from './domain/return-condition';
// The domain's pure rules (refund per line, where a refund goes, what becomes of the goods),
// for callers that write returns without the workflow, e.g. the CLI's benchmark seeder.
export { lineRefund, NO_CLAIMS } from './domain/refund-amounts';
export type { LineRefund, SoldLine } from './domain/refund-amounts';
export { refundableTenders, splitRefund } from './domain/refund-split';
export type { RefundPart } from './domain/refund-split';
export { canRestock, stockAction } from './domain/return-condition';
export { DEFAULT_RETURN_REASONS } from './domain/default-return-reasons';
