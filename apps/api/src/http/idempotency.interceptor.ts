import { CallHandler, ExecutionContext, HttpStatus, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { lastValueFrom, Observable, of } from 'rxjs';
import type { Principal } from '@pos/identity';
import { ValidationFailedError } from '@pos/kernel';
import {
  AnswerCodec,
  APP_CONFIG,
  AppConfig,
  IDEMPOTENCY_RETENTION_HEADER,
  IDEMPOTENCY_RETENTION_SECONDS,
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyKeyFromHeader,
  IdempotentRequests,
  requestFingerprint,
  SecretSealer,
} from '@pos/platform';
import { envelope, SerializedJson } from './envelope';

export const IDEMPOTENT_CREATE = 'pos:idempotent-create';

/** How a route honours the `Idempotency-Key` header (set by `@IdempotentCreate`, idempotency.decorator.ts). */
export interface IdempotentCreateOptions {
  /**
   * The body field that already carries a key on this route (checkout, returns): the header stands
   * for it and the route's own idempotency does the rest; both given and different is 422.
   */
  bodyKey?: string;
  /**
   * `transaction` (default): the handler runs inside one transaction with its key, so the record and
   * the key commit together. `claim`: for handlers that commit on their own, in several transactions
   * or with effects after their commit (the offline upload, a queued bulk job): the key is claimed
   * first, then the handler runs (IdempotentRequests.claimThenRun).
   */
  mode?: 'transaction' | 'claim';
  /**
   * Fields of `data` shown once (a signing secret, a token): sealed with APP_KEY in the stored answer
   * (the database alone never reveals them) and opened again for a replay to the same user.
   */
  secrets?: readonly string[];
}

/** Every keyed request of the header kind shares one scope: the route is part of the fingerprint. */
const SCOPE = 'request';

/**
 * The `Idempotency-Key` header on a route that creates something (issue 26; decisions.md
 * "Idempotency"), with the same rules as checkout's body key, through the same IdempotentRequests:
 * the same key, user and request (method, URL and canonical body) answer the stored status and
 * body again with `Idempotent-Replayed: true`; another request under that key is 422 on
 * `idempotency_key`; one still running is 409 with Retry-After; exactly one record however
 * concurrent duplicates race (the key's unique index decides). Every answer to a keyed request
 * states `Idempotency-Key-Retention`. Without the header the route runs exactly as before.
 *
 * Per route (UseInterceptors through the decorator), not global: routes without it keep the lean
 * pipeline (lean-pipeline.ts). The answer is stored as the whole envelope and sent as it is, so a
 * replay is byte for byte the original.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly sealer: SecretSealer;

  constructor(
    private readonly requests: IdempotentRequests,
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.sealer = new SecretSealer(config.appKey, 'idempotent-answer-secret');
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const options = this.reflector.get<IdempotentCreateOptions | undefined>(IDEMPOTENT_CREATE, context.getHandler()) ?? {};
    const req = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    const res = context.switchToHttp().getResponse<Response>();
    const header = idempotencyKeyFromHeader(req.headersDistinct['idempotency-key']);
    if (header === undefined) return next.handle();
    stateRetention(res);
    const request = {
      scope: SCOPE,
      key: header,
      fingerprint: requestFingerprint({ method: req.method, url: req.originalUrl, body: (req.body as unknown) ?? null }),
      userId: req.user?.userId ?? 0,
    };
    const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
    // Called inside the transaction (or after the claim): the handler, its pipes and its use case run there.
    const work = async () => envelope(await lastValueFrom(next.handle(), { defaultValue: undefined }));
    const codec = options.secrets?.length ? this.secretsCodec(options.secrets) : undefined;
    const outcome =
      options.mode === 'claim' ? await this.requests.claimThenRun(request, status, work, codec) : await this.requests.run(request, status, work, codec);
    if (outcome.replayed) res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
    res.status(outcome.status);
    return of(SerializedJson.of(outcome.body as Record<string, unknown>));
  }

  /** Seals the named string fields of the answer's `data`; a replay opens them again. */
  private secretsCodec(fields: readonly string[]): AnswerCodec {
    const mapData = (answer: unknown, fn: (value: string) => string): unknown => {
      const data = (answer as { data?: unknown } | null)?.data;
      if (!data || typeof data !== 'object') return answer;
      const copy = { ...(data as Record<string, unknown>) };
      for (const f of fields) if (typeof copy[f] === 'string') copy[f] = fn(copy[f]);
      return { ...(answer as object), data: copy };
    };
    return {
      store: (answer) => mapData(answer, (v) => this.sealer.seal(v)),
      restore: (stored) =>
        mapData(stored, (v) => {
          try {
            return this.sealer.unseal(v);
          } catch {
            throw ValidationFailedError.field(
              'idempotency_key',
              'The answer stored under this key holds a secret that can no longer be opened (APP_KEY changed): it cannot be replayed.',
            );
          }
        }),
    };
  }
}

/** Every answer to a keyed request states how long its key is kept. */
export function stateRetention(res: Response): void {
  res.setHeader(IDEMPOTENCY_RETENTION_HEADER, String(IDEMPOTENCY_RETENTION_SECONDS));
}
