import { Page, PageRequest } from '@pos/kernel';
import { DeliveryStatus } from '../domain/delivery';

export interface EndpointRecord {
  id: number;
  url: string;
  description: string | null;
  events: string[];
  active: boolean;
  /** The signing secret, sealed under APP_KEY (never stored or logged in clear). */
  secretSealed: string;
  /** After a rotation, the old secret keeps signing (beside the new one) until previousSecretExpiresAt. */
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  createdBy: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface DeliveryRecord {
  id: number;
  /** The public id: X-Service-Delivery-Id, the same on every attempt and re-send. */
  uuid: string;
  endpointId: number;
  eventId: number;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  /** `attempts` when the current round began (a re-send starts the retry schedule over). */
  roundStart: number;
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  /** Lease of the process sending it now (several workers; a dead one's lease runs out). */
  lockedBy: string | null;
  lockedUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface AttemptRecord {
  id: number;
  deliveryId: number;
  attempt: number;
  startedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  remoteAddress: string | null;
  responseExcerpt: string | null;
}

/** An outbox row as the relay reads it (the table belongs to platform's ChangeLog). */
export interface OutboxEventRecord {
  id: number;
  type: string;
  storeId: number | null;
  /** JSON text, as ChangeLog wrote it. */
  payload: string;
  createdAt: Date;
}

export abstract class WebhookEndpointRepository {
  abstract create(endpoint: Omit<EndpointRecord, 'id'>): Promise<EndpointRecord>;
  abstract find(id: number): Promise<EndpointRecord | null>;
  abstract list(page: PageRequest): Promise<Page<EndpointRecord>>;
  abstract update(id: number, changes: Partial<Omit<EndpointRecord, 'id'>>): Promise<void>;
  abstract delete(id: number): Promise<void>;
  /** Endpoints that take deliveries now (active, not disabled): the relay's fan-out targets. */
  abstract receiving(): Promise<Pick<EndpointRecord, 'id' | 'events'>[]>;
}

/**
 * The relay's view of the outbox: claim unpublished rows (in the caller's transaction; with
 * FOR UPDATE SKIP LOCKED on MySQL so concurrent relays take different rows), mark them published.
 */
export abstract class OutboxRelayRepository {
  /** Cheap check outside any transaction, so idle polls take no locks. */
  abstract hasUnpublished(): Promise<boolean>;
  abstract claimUnpublished(limit: number): Promise<OutboxEventRecord[]>;
  abstract markPublished(ids: number[], at: Date): Promise<void>;
  /** An event born published, delivered only where its caller says (ping). */
  abstract insertPublished(type: string, payload: Record<string, unknown>, at: Date): Promise<OutboxEventRecord>;
  abstract find(id: number): Promise<OutboxEventRecord | null>;
  // Retention of events is the event log's (EventLogRepository.expired / deleteWithDeliveries).
}

export interface DeliveryFilter {
  status?: DeliveryStatus;
  eventType?: string;
}

export abstract class WebhookDeliveryRepository {
  /** Inserts; a (event, endpoint) pair that already has a delivery is left as it is. */
  abstract insertMany(deliveries: Omit<DeliveryRecord, 'id'>[]): Promise<void>;
  abstract findByUuid(uuid: string): Promise<DeliveryRecord | null>;
  abstract list(endpointId: number, filter: DeliveryFilter, page: PageRequest): Promise<Page<DeliveryRecord>>;
  abstract attempts(deliveryId: number): Promise<AttemptRecord[]>;
  /** Takes the lease when the delivery is pending, due and not leased by a live sender. */
  abstract claim(uuid: string, owner: string, now: Date, leaseUntil: Date): Promise<boolean>;
  /** The delivery with its endpoint and event, in one query (null when any of them is gone). */
  abstract loadForSend(uuid: string): Promise<{ delivery: DeliveryRecord; endpoint: EndpointRecord; event: OutboxEventRecord } | null>;
  /** Applies `changes` and clears the lease if `owner` still holds it; false when it does not. */
  abstract settle(uuid: string, owner: string, changes: Partial<DeliveryRecord>): Promise<boolean>;
  abstract addAttempt(attempt: Omit<AttemptRecord, 'id'>): Promise<void>;
  abstract update(id: number, changes: Partial<DeliveryRecord>): Promise<void>;
  /** Pending, due before `dueBefore` and not leased at `now`: their queue job may be lost. */
  abstract dueUnleased(dueBefore: Date, now: Date, limit: number): Promise<DeliveryRecord[]>;
  /** Retention: deliveries untouched since `before` and not leased at `now`. */
  abstract purgeable(before: Date, now: Date, limit: number): Promise<number[]>;
  /** Deletes deliveries with their attempts. */
  abstract delete(ids: number[]): Promise<void>;
}

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivateTargets: boolean;
}

export interface SendResult {
  /** Null when no response came (refused target, DNS, connection, timeout). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The address actually connected to. */
  remoteAddress: string | null;
  /** The start of the response body (a few KB are read at most). */
  responseExcerpt: string | null;
}

/**
 * POSTs one delivery: never follows redirects, reads at most a few KB of the response, and
 * refuses (as a failed attempt) any target address the SSRF guard does not allow, checked on
 * the address actually connected to (so a DNS answer changed after the URL was accepted does
 * not get through).
 */
export abstract class WebhookSender {
  abstract send(request: SendRequest): Promise<SendResult>;
}

/** DNS for the URL check at create/update time: every address of a host name. */
export abstract class HostResolver {
  /** Throws HostNotResolvedError when the name has no address. */
  abstract addresses(host: string): Promise<string[]>;
}

export class HostNotResolvedError extends Error {}
