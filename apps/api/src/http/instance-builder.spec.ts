import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ValidationPipe } from '@nestjs/common';
import { Expose, plainToInstance, Transform, Type } from 'class-transformer';
import { getMetadataStorage, IsInt, IsOptional } from 'class-validator';
import { bodyOf, Dto, loose } from '../../../../test/support/dto-bodies';
import { InstanceBuilder } from './instance-builder';
import { preflight, Preflight } from './validation';
import { PricingCartDto } from '../pricing/pricing.dto';
import { CheckoutDto } from '../sales/sales.dto';

/** What AppValidationPipe did with a body before the builder: Nest's two clean-ups, then class-transformer. */
class Reference extends ValidationPipe {
  instance(dto: Dto, body: Record<string, unknown>): object {
    const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>; // this realm's objects, as a parsed body
    this.closeArrayGaps(copy);
    this.stripProtoKeys(copy);
    return plainToInstance(dto, copy, { enableImplicitConversion: false }) as object;
  }
}

/** Every DTO class of the API: the classes class-validator knows once every *.dto.ts is loaded. */
function apiDtos(): Dto[] {
  const root = join(__dirname, '..');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.dto.ts'));
  for (const file of files) require(join(root, file)); // eslint-disable-line @typescript-eslint/no-require-imports
  const targets = (getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, unknown> }).validationMetadatas;
  return [...targets.keys()].filter((t): t is Dto => typeof t === 'function');
}

/** JSON a hostile client may put in a free field: prototype names at every depth. */
const hostile = fc
  .constantFrom(
    '{"__proto__":{"polluted":1},"a":1}',
    '{"constructor":{"prototype":{"polluted":2}},"b":[1]}',
    '{"toString":1,"valueOf":"x","prototype":3,"hasOwnProperty":null,"c":{"__proto__":[],"d":2}}',
    '[{"__proto__":{"e":1}},[{"constructor":1}],3]',
    '{"isPrototypeOf":[],"__lookupGetter__":{},"f":{"propertyIsEnumerable":1}}',
  )
  .map((json) => JSON.parse(json) as unknown);
const anyValue = fc.oneof({ weight: 4, arbitrary: loose }, { weight: 1, arbitrary: hostile });
/** What Express's simple query parser makes of a parameter: a string, or the strings of a repeated one. */
const queryString = fc.oneof(fc.constantFrom('1', '42', '-3', '2.5', 'abc', '', ' 7 ', 'true', '2026-11-27', 'percent'), fc.string({ maxLength: 4 }));
const queryValue = fc.oneof({ weight: 4, arbitrary: queryString }, { weight: 1, arbitrary: fc.array(queryString, { minLength: 2, maxLength: 3 }) });

describe('InstanceBuilder', () => {
  const builder = new InstanceBuilder({ enableImplicitConversion: false });
  const reference = new Reference();

  /** The body (or query) as the pipe hands it over (preflight's copy), or undefined when preflight refuses it. */
  function preflighted(dto: Dto, body: Record<string, unknown>, refuseUnknown = true): Record<string, unknown> | undefined {
    const ctx: Preflight = { errors: {}, renamed: new Map(), refuseUnknown };
    const trimmed = preflight(body, dto, '', ctx);
    return Object.keys(ctx.errors).length ? undefined : trimmed;
  }

  /**
   * Over every DTO of the API and inputs made of `value`s, what preflight lets through: the builder
   * leaves it unchanged and builds class-transformer's instance or is not sure. Returns the share built.
   */
  function builtShare(value: fc.Arbitrary<unknown>, kind: 'body' | 'query', numRuns: number): number {
    let built = 0;
    let tried = 0;
    for (const dto of apiDtos()) {
      fc.assert(
        fc.property(bodyOf(dto, value), (fields) => {
          // A parsed query string is an object without a prototype, as node:querystring makes it.
          const sent = kind === 'query' ? Object.assign(Object.create(null) as Record<string, unknown>, fields) : fields;
          const input = preflighted(dto, sent, kind === 'body');
          if (!input) return;
          tried += 1;
          const before = JSON.stringify(input);
          const instance = builder.build(dto, input);
          expect(JSON.stringify(input)).toBe(before); // never changed
          if (instance === undefined) return;
          built += 1;
          expect(instance).toStrictEqual(reference.instance(dto, input));
        }),
        { numRuns },
      );
    }
    return built / tried;
  }

  it('builds, for every DTO of the API and any body, the instance class-transformer builds, or says it is not sure', () => {
    expect(apiDtos().length).toBeGreaterThan(100);
    // Not sure is the exception: nearly every body the preflight lets through is built.
    expect(builtShare(anyValue, 'body', 40)).toBeGreaterThan(0.9);
  });

  it('builds, for every DTO of the API and any query string, the instance class-transformer builds', () => {
    expect(builtShare(queryValue, 'query', 25)).toBeGreaterThan(0.9);
  });

  it('builds the bench cart and a checkout as class-transformer does', () => {
    const cart = {
      items: Array.from({ length: 50 }, (_, i) => ({ id: String(1 + (i % 31)), qty: 1 + (i % 6) })),
      cart_discount_type: 'percent',
      cart_discount_value: 5,
    };
    const checkout = { items: [{ item_id: 1, qty: 2 }], payments: [{ payment_method_code: 'cash', amount: 10 }], reference: { toString: 1 }, store_id: '1' };
    for (const [dto, body] of [
      [PricingCartDto, cart],
      [CheckoutDto, checkout],
    ] as [Dto, Record<string, unknown>][]) {
      const trimmed = preflighted(dto, body);
      expect(trimmed).toBeDefined();
      const instance = builder.build(dto, trimmed!);
      expect(instance).toBeInstanceOf(dto);
      expect(instance).toStrictEqual(reference.instance(dto, trimmed!));
    }
  });

  it('keeps a nested field that is not objects as class-transformer does, and is not sure of arrays of anything else', () => {
    for (const items of [null, 5, 'x', true]) expect(builder.build(PricingCartDto, { items })).toStrictEqual(reference.instance(PricingCartDto, { items }));
    for (const items of [[1], [null], [[{ id: 1 }]], {}]) {
      const instance = builder.build(PricingCartDto, { items });
      if (instance !== undefined) expect(instance).toStrictEqual(reference.instance(PricingCartDto, { items }));
      else expect(Array.isArray(items) || typeof items === 'object').toBe(true);
    }
  });

  it('is not sure of what it does not model, and refuses options it does not model', () => {
    class Exposed {
      @Expose({ name: 'n' }) @IsInt() number!: number;
    }
    class Dated {
      @IsOptional() @Type(() => Date) when?: Date;
    }
    class Grouped {
      @Transform(({ value }: { value: unknown }) => String(value), { groups: ['x'] }) @IsOptional() v?: string;
    }
    expect(builder.build(Exposed, { n: 1 })).toBeUndefined();
    expect(builder.build(Dated, { when: '2026-11-27' })).toBeUndefined();
    // A transform in a group is not applied without groups, by either.
    expect(builder.build(Grouped, { v: 1 })).toStrictEqual(reference.instance(Grouped, { v: 1 }));
    expect(() => new InstanceBuilder({ enableImplicitConversion: true })).toThrow(/enableImplicitConversion/);
    expect(() => new InstanceBuilder({ excludeExtraneousValues: true })).toThrow(/excludeExtraneousValues/);
  });
});
