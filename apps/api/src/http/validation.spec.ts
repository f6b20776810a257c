import { Type } from 'class-transformer';
import { IsArray, ValidateNested } from 'class-validator';
import { ValidationFailedError } from '@pos/kernel';
import { AppValidationPipe } from './validation';
import { RequiredInt, RequiredString } from './validators';

class LineDto {
  @RequiredString() id!: string;
  @RequiredInt({ min: 1, max: 1000 }) qty!: number;
}
class CartDto {
  @IsArray() @ValidateNested({ each: true }) @Type(() => LineDto) items!: LineDto[];
  @RequiredString({ max: 5 }) reference!: string;
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

  it('strips unknown fields and converts numeric strings', async () => {
    const out = (await run({ items: [{ id: 'a', qty: '3', extra: 1 }], reference: 'ok', hack: true })) as CartDto;
    expect(out.items[0].qty).toBe(3);
    expect((out as unknown as Record<string, unknown>).hack).toBeUndefined();
  });
});
