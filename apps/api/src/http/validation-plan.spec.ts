import fc from 'fast-check';
import { bodyOf, Dto } from '../../../../test/support/dto-bodies';
import { plainToInstance, Type } from 'class-transformer';
import { Allow, IsArray, IsInt, Min, validate, ValidateIf, ValidateNested } from 'class-validator';
import { CheckoutDto } from '../sales/sales.dto';
import { SalesFeedQuery } from '../integration/feeds.dto';
import { ReportQuery } from '../integration/reports.dto';
import { ItemListQuery } from '../catalog/catalog.dto';
import { CustomerSearchQuery } from '../customers/customers.dto';
import { CalculateDto, CreateRuleDto, PosSearchQuery, PricingCartDto, PricingValidateDto } from '../pricing/pricing.dto';
import { ValidationPlans } from './validation-plan';
import { cacheValidationMetadata } from './validation-metadata-cache';

/** The pipe's class-validator options (validation.ts). */
const OPTIONS = { whitelist: true, forbidUnknownValues: false, validationError: { target: false, value: true } };

class Inner {
  @IsInt() @Min(1) n!: number;
}
class Conditional {
  @ValidateIf((o: Conditional) => o.kind === 'a') @IsInt() a?: number;
  @Allow() kind?: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => Inner) inners!: Inner[];
  @ValidateNested() @Type(() => Inner) one?: Inner;
}

describe('ValidationPlans', () => {
  beforeAll(() => cacheValidationMetadata());
  const plans = new ValidationPlans();

  /** The plan's verdict and class-validator's, over copies of one body; and what each left of the instance. */
  async function both(dto: Dto, body: unknown) {
    const mine = plainToInstance(dto, structuredClone(body)) as object;
    const theirs = plainToInstance(dto, structuredClone(body)) as object;
    const verdict = plans.validate(mine);
    const errors = await validate(theirs, OPTIONS);
    return { verdict, errors, mine, theirs };
  }

  it.each([PricingCartDto, PricingValidateDto, CalculateDto, CreateRuleDto, CheckoutDto] as Dto[])(
    '%p: valid exactly when class-validator finds no error, and stripped as it strips',
    async (dto) => {
      await fc.assert(
        fc.asyncProperty(bodyOf(dto), async (body) => {
          const { verdict, errors, mine, theirs } = await both(dto, body);
          expect(verdict).toBe(errors.length === 0);
          if (verdict) expect(mine).toStrictEqual(theirs);
        }),
        { numRuns: 300 },
      );
    },
  );

  it.each([SalesFeedQuery, ItemListQuery, ReportQuery, CustomerSearchQuery, PosSearchQuery] as Dto[])(
    '%p: a query string is valid by the plan exactly when class-validator finds no error',
    async (dto) => {
      const value = fc.oneof(fc.constantFrom('1', '42', '-3', '2.5', 'abc', '', ' 7 ', 'true', '2026-11-27', 'asc', 'created_at'), fc.string({ maxLength: 4 }));
      await fc.assert(
        fc.asyncProperty(
          bodyOf(dto, fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.array(value, { minLength: 2, maxLength: 3 }) })),
          async (query) => {
            const { verdict, errors, mine, theirs } = await both(dto, query);
            expect(verdict).toBe(errors.length === 0);
            if (verdict) expect(mine).toStrictEqual(theirs);
          },
        ),
        { numRuns: 300 },
      );
    },
  );

  it('a 50-line pricing cart is valid by the plan, as by class-validator', async () => {
    const body = {
      items: Array.from({ length: 50 }, (_, i) => ({ id: 1 + (i % 31), qty: 1 + (i % 6) })),
      cart_discount_type: 'percent',
      cart_discount_value: 5,
    };
    const { verdict, errors, mine, theirs } = await both(PricingCartDto, body);
    expect(errors).toEqual([]);
    expect(verdict).toBe(true);
    expect(mine).toStrictEqual(theirs);
  });

  it('sees a rule added to a class after its plan was made', () => {
    class Late {
      @IsInt() n!: number;
    }
    expect(plans.validate(Object.assign(new Late(), { n: 1 }))).toBe(true);
    Min(5)(Late.prototype, 'n');
    expect(plans.validate(Object.assign(new Late(), { n: 1 }))).toBe(false);
    expect(plans.validate(Object.assign(new Late(), { n: 6 }))).toBe(true);
  });

  it('follows conditions, nested objects and arrays, and strips what has no rule', async () => {
    const cases: [unknown, boolean][] = [
      [{ kind: 'b', a: 'x', inners: [{ n: 1 }], one: { n: 2 } }, true],
      [{ kind: 'a', a: 'x', inners: [] }, false],
      [{ kind: 'a', a: 3, inners: [{ n: 0 }] }, false],
      [{ kind: 'c', inners: [{ n: 1 }, undefined] }, true],
      [{ inners: [{ n: 1 }], one: null }, false],
      [{ inners: [{ n: 1, extra: 1 }], one: { n: 1, extra: true } }, true],
      [{ inners: [1] }, false],
      [{ inners: [{ n: 1 }], one: 5 }, false],
      [{ inners: 'x' }, false],
    ];
    for (const [body, valid] of cases) {
      const { verdict, errors, mine, theirs } = await both(Conditional, body);
      expect({ body, verdict, valid: errors.length === 0 }).toEqual({ body, verdict: valid, valid });
      if (valid) expect(mine).toStrictEqual(theirs);
    }
  });
});
