import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * OpenAPI helpers for responses in the envelope of contract 2.1: a route states its success
 * status with the real `data` shape, and each error status with what causes it.
 */
export const PAGINATION_META: SchemaObject = {
  type: 'object',
  required: ['current_page', 'last_page', 'per_page', 'total'],
  properties: { current_page: { type: 'integer' }, last_page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' } },
};

export const ERROR_ENVELOPE: SchemaObject = {
  type: 'object',
  required: ['success', 'message'],
  properties: {
    success: { type: 'boolean', example: false },
    message: { type: 'string' },
    errors: {
      type: 'object',
      description: 'Validation failures only (422): dotted field name -> messages',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
};

export function envelopeSchema(data: SchemaObject, paginated = false): SchemaObject {
  return {
    type: 'object',
    required: paginated ? ['success', 'data', 'meta'] : ['success', 'data'],
    properties: {
      success: { type: 'boolean', example: true },
      data: paginated ? { type: 'array', items: data } : data,
      ...(paginated ? { meta: PAGINATION_META } : {}),
    },
  };
}

/** The success response: `status` with `{success, data[, meta]}`. */
export const ApiEnvelope = (status: number, data: SchemaObject, o: { description: string; paginated?: boolean }) =>
  ApiResponse({ status, description: o.description, schema: envelopeSchema(data, o.paginated) });

/** Error responses (the error envelope of contract part 7), each with what causes it. */
export const ApiErrors = (errors: Partial<Record<400 | 404 | 409 | 422, string>>) =>
  applyDecorators(...Object.entries(errors).map(([status, description]) => ApiResponse({ status: Number(status), description, schema: ERROR_ENVELOPE })));

/** Small schema builders. */
export const schema = {
  obj(properties: Record<string, SchemaObject>, nullable = false): SchemaObject {
    return { type: 'object', required: Object.keys(properties), properties, ...(nullable ? { nullable: true } : {}) };
  },
  int: (description?: string, nullable = false): SchemaObject => ({ type: 'integer', description, ...(nullable ? { nullable: true } : {}) }),
  money: (description?: string): SchemaObject => ({ type: 'number', description: description ?? "Amount in the currency's decimals" }),
  str: (description?: string, nullable = false, enumValues?: readonly string[]): SchemaObject => ({
    type: 'string',
    description,
    ...(enumValues ? { enum: [...enumValues] } : {}),
    ...(nullable ? { nullable: true } : {}),
  }),
  bool: (description?: string): SchemaObject => ({ type: 'boolean', description }),
  time: (description?: string, nullable = false): SchemaObject => ({
    type: 'string',
    format: 'date-time',
    description,
    ...(nullable ? { nullable: true } : {}),
  }),
  arr: (items: SchemaObject, description?: string): SchemaObject => ({ type: 'array', items, description }),
};
