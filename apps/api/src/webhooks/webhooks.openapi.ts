import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';

/**
 * OpenAPI helpers for the webhook routes: the envelope of contract 2.1 around the real `data`
 * shape, and the error envelope of part 7 for each error status a route can answer. Local to
 * this folder until the shared ones (issue 16) land; then these become thin aliases.
 */
export class PaginationMetaSchema {
  @ApiProperty({ type: 'integer', example: 1 }) current_page!: number;
  @ApiProperty({ type: 'integer', example: 1 }) last_page!: number;
  @ApiProperty({ type: 'integer', example: 50 }) per_page!: number;
  @ApiProperty({ type: 'integer', example: 3 }) total!: number;
}

export class ErrorEnvelopeSchema {
  @ApiProperty({ example: false }) success!: boolean;
  @ApiProperty({ example: 'The given data was invalid.' }) message!: string;
  @ApiProperty({
    required: false,
    description: 'Validation errors only: field -> messages',
    type: Object,
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { url: ['The url resolves to 127.0.0.1, a loopback address: webhooks may only target public addresses.'] },
  })
  errors?: Record<string, string[]>;
  @ApiProperty({ required: false, description: 'Stable error code (domain errors)' }) code?: string;
}

export const ApiEnvelope = (model: Type<unknown>, opts: { status?: number; paginated?: boolean; description?: string } = {}) =>
  applyDecorators(
    ApiExtraModels(model, PaginationMetaSchema),
    ApiResponse({
      status: opts.status ?? 200,
      description: opts.description ?? 'Success',
      schema: {
        type: 'object',
        required: opts.paginated ? ['success', 'data', 'meta'] : ['success', 'data'],
        properties: {
          success: { type: 'boolean', example: true },
          data: opts.paginated ? { type: 'array', items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) },
          ...(opts.paginated ? { meta: { $ref: getSchemaPath(PaginationMetaSchema) } } : {}),
        },
      },
    }),
  );

export const ApiMessage = (description: string, example: string) =>
  ApiResponse({
    status: 200,
    description,
    schema: {
      type: 'object',
      required: ['success', 'message'],
      properties: { success: { type: 'boolean', example: true }, message: { type: 'string', example } },
    },
  });

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed JSON or a body that is not an object',
  404: 'No such webhook endpoint or delivery (a non-numeric endpoint id or a malformed delivery id is a 404 too)',
  409: 'The endpoint is inactive or disabled, or an attempt of the delivery is in progress',
  413: 'Body larger than BODY_LIMIT',
  422: 'Validation failed (`errors` names each field), including a url refused by the SSRF guard',
};

export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(
    ApiExtraModels(ErrorEnvelopeSchema),
    ...statuses.map((status) => ApiResponse({ status, description: ERROR_TEXT[status], type: ErrorEnvelopeSchema })),
  );
