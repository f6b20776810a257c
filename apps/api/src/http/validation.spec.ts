import { Type } from 'class-transformer';
import { IsArray, ValidateNested } from 'class-validator';
import { ValidationFailedError } from '@pos/kernel';
import { AppValidationPipe } from './validation';
import { AliasOf } from './body-names';
import { NestedArray, RequiredInt, RequiredString } from './validators';

class LineDto {
  @RequiredString() id!: string;
  @RequiredInt({ min: 1, max: 1000 }) qty!: number;
}
class CartDto {
  @IsArray() @ValidateNested({ each: true }) @Type(() => LineDto) items!: LineDto[];
  @RequiredString({ max: 5 }) reference!: string;
}

class AliasedLineDto {
  @AliasOf('item_id') @RequiredInt() id!: number;
  @AliasOf('quantity') @RequiredInt({ min: 1, max: 10 }) qty!: number;
}
class AliasedCartDto {
  @NestedArray(() => AliasedLineDto, { required: true, maxItems: 10 }) lines!: AliasedLineDto[];
}

describe('AppValidationPipe', () => {
  const pipe = new AppValidationPipe();
  const run = (value: unknown) => pipe.transform(value, { type: 'body', metatype: CartDto });

  it('keys nested errors with dots and says "required" for missing fields', async () => {
    const error = await run({ items: [{ id: 'a', qty: 1 }, { id: 5 }], reference: 'toolong' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationFailedError);
    const fields = (error as ValidationFailedError).fields;
    expect(fields['items.1.qty']).toEqual(['The items.1.qty field is required.']);
    expect(fields['items.1.id']).toEqual(['The items.1.id field must be a string.']);
    expect(fields.reference[0]).toMatch(/^The reference field must be shorter than or equal to 5 characters\.$/);
    expect(Object.keys(fields).sort()).toEqual(['items.1.id', 'items.1.qty', 'reference']);
  });

  it('converts numeric strings', async () => {
    const out = (await run({ items: [{ id: 'a', qty: '3' }], reference: 'ok' })) as CartDto;
    expect(out.items[0].qty).toBe(3);
  });

  it('names an unknown body field instead of dropping it, and drops an unknown query parameter', async () => {
    const error = await run({ items: [], reference: 'ok', hack: true }).catch((e: unknown) => e);
    expect((error as ValidationFailedError).fields).toEqual({ hack: ['Unknown field.'] });
    const query = (await pipe.transform({ items: [], reference: 'ok', hack: '1' }, { type: 'query', metatype: CartDto })) as Record<string, unknown>;
    expect(query.hack).toBeUndefined();
  });

  describe('aliases', () => {
    const runLines = (value: unknown) => pipe.transform(value, { type: 'body', metatype: AliasedCartDto });

    it('renames an alias to its field, nested lines included', async () => {
      const out = (await runLines({
        lines: [
          { item_id: 7, quantity: 2 },
          { id: 8, qty: 1 },
        ],
      })) as AliasedCartDto;
      expect(out.lines.map((l) => ({ ...l }))).toEqual([
        { id: 7, qty: 2 },
        { id: 8, qty: 1 },
      ]);
    });

    it('accepts an alias repeating its field, refuses one contradicting it, names an alias in its own errors', async () => {
      const same = (await runLines({ lines: [{ id: 7, item_id: 7, qty: 1 }] })) as AliasedCartDto;
      expect({ ...same.lines[0] }).toEqual({ id: 7, qty: 1 });
      const clash = (await runLines({ lines: [{ id: 7, item_id: 8, qty: 1 }] }).catch((e: unknown) => e)) as ValidationFailedError;
      expect(Object.keys(clash.fields)).toEqual(['lines.0.item_id']);
      const bad = (await runLines({ lines: [{ id: 7, quantity: 0 }] }).catch((e: unknown) => e)) as ValidationFailedError;
      expect(Object.keys(bad.fields)).toEqual(['lines.0.quantity']);
      expect(bad.fields['lines.0.quantity'][0]).toMatch(/^The lines\.0\.quantity field /);
    });
  });
});
