import fc from 'fast-check';
import { getMetadataStorage } from 'class-validator';
import { arrayShapeOf } from '../../apps/api/src/http/validators';

export type Dto = new () => object;

/** The fields class-validator knows on `dto`, inherited ones included. */
export const keysOf = (dto: Dto): string[] => [
  ...new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(dto, '', true, false)
      .map((m) => m.propertyName),
  ),
];

/** Any JSON value a client may send in a field: right, wrong, null, nested. */
export const scalar = fc.oneof(
  fc.integer({ min: -5, max: 200 }),
  fc.double({ min: -10, max: 1000, noNaN: true }),
  fc.constantFrom('1', '2.5', '12abc', '', ' x ', 'percent', 'amount', 'card', 'cash', '2026-11-18', 'true', '0'),
  fc.boolean(),
  fc.constant(null),
);
export const loose = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 3 }), scalar, { maxKeys: 2 }) },
);

/** A body for `dto`: each field left out, or any value; an array field gets bodies of its element class. */
export function bodyOf(dto: Dto, value: fc.Arbitrary<unknown> = loose, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of keysOf(dto)) {
    const nested = arrayShapeOf(dto, key)?.nested?.();
    const field =
      nested && depth < 2
        ? fc.oneof({ weight: 4, arbitrary: fc.array(bodyOf(nested, value, depth + 1), { maxLength: 4 }) }, { weight: 1, arbitrary: value })
        : value;
    fields[key] = fc.option(field, { nil: undefined, freq: 3 });
  }
  return fc.record(fields, { requiredKeys: [] }).map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>);
}
