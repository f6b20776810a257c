import { applyDecorators, SetMetadata, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH } from '@pos/platform';
import { IdempotencyBodyKeyGuard } from './idempotency-body-key.guard';
import { IDEMPOTENT_CREATE, IdempotentCreateOptions, IdempotencyInterceptor } from './idempotency.interceptor';

/** The body key's own limit on checkout and returns (their sales/returns columns): the header stands for it there. */
const BODY_KEY_MAX_LENGTH = 128;

/**
 * A POST that creates something honours the `Idempotency-Key` header (idempotency.interceptor.ts;
 * with `bodyKey`, idempotency-body-key.guard.ts: the route keeps no interceptor).
 * The header parameter is documented here; idempotency.openapi.ts turns it into the shared
 * `components.parameters.IdempotencyKey` and adds the response headers and the 409/422 cases.
 * test/idempotency checks that every POST answering 201 carries it.
 */
export const IdempotentCreate = (options: IdempotentCreateOptions = {}) =>
  applyDecorators(
    SetMetadata(IDEMPOTENT_CREATE, options),
    options.bodyKey ? UseGuards(new IdempotencyBodyKeyGuard(options.bodyKey)) : UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description: options.bodyKey
        ? `Same as the body's ${options.bodyKey} (at most ${BODY_KEY_MAX_LENGTH} characters here); both given and different: 422`
        : 'Makes this create safe to retry',
      schema: { type: 'string', minLength: 1, maxLength: options.bodyKey ? BODY_KEY_MAX_LENGTH : IDEMPOTENCY_KEY_MAX_LENGTH },
    }),
  );
