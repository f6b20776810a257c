import { ValidationFailedError } from '@pos/kernel';
import { idempotencyKeyFromHeader, mergeIdempotencyKeys } from './idempotency-key-header';

const refusal = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedError);
    return (error as ValidationFailedError).fields.idempotency_key?.[0];
  }
  return undefined;
};

describe('the Idempotency-Key header', () => {
  it('is absent, or one value of 1-255 printable ASCII characters', () => {
    expect(idempotencyKeyFromHeader(undefined)).toBeUndefined();
    expect(idempotencyKeyFromHeader(['3f2b-key'])).toBe('3f2b-key');
    expect(idempotencyKeyFromHeader(' a ~ ')).toBe(' a ~ ');
    expect(idempotencyKeyFromHeader('k'.repeat(255))).toHaveLength(255);
  });

  it('is refused (422 on idempotency_key) empty, too long, not printable ASCII, or sent twice', () => {
    expect(refusal(() => idempotencyKeyFromHeader(''))).toMatch(/empty/);
    expect(refusal(() => idempotencyKeyFromHeader('k'.repeat(256)))).toMatch(/255/);
    expect(refusal(() => idempotencyKeyFromHeader('tab\there'))).toMatch(/printable/);
    expect(refusal(() => idempotencyKeyFromHeader('caf\u00e9'))).toMatch(/printable/);
    expect(refusal(() => idempotencyKeyFromHeader(['a', 'b']))).toMatch(/one Idempotency-Key/);
  });

  it('stands for a body key: either, or both only when equal', () => {
    expect(mergeIdempotencyKeys(undefined, undefined)).toBeUndefined();
    expect(mergeIdempotencyKeys(undefined, 'body')).toBe('body');
    expect(mergeIdempotencyKeys('head', undefined)).toBe('head');
    expect(mergeIdempotencyKeys('head', null)).toBe('head');
    expect(mergeIdempotencyKeys('same', 'same')).toBe('same');
    expect(refusal(() => mergeIdempotencyKeys('head', 'body'))).toMatch(/differ/);
    expect(refusal(() => mergeIdempotencyKeys('head', 42))).toMatch(/differ/);
  });
});
