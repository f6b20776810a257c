/**
 * @pos/client: a typed TypeScript client of the Point-of-Sale Service API.
 * Types come from the committed OpenAPI document (clients/openapi.json) via openapi-typescript;
 * requests go through openapi-fetch. See clients/typescript/README.md.
 */
export { createPosClient, PosClient, unwrap } from './client';
export type { BodyOf, CallInit, DataOf, PosClientOptions, Schema, SuccessBody } from './client';
export { PosApiError } from './errors';
export type { ErrorEnvelope } from './errors';
export { verifyWebhook, verifyWebhookSignature, webhookSignature, WEBHOOK_HEADERS, WebhookVerificationError } from './webhooks';
export type { HeaderSource, VerifiedWebhook, VerifyWebhookInput, WebhookEvent, WebhookFailure } from './webhooks';
export { OPERATIONS } from './generated/operations';
export type { OperationName } from './generated/operations';
export type { components, operations, paths } from './generated/schema';
