import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsString, registerDecorator, validateSync, ValidateNested } from 'class-validator';
import { plainToInstance, Type } from 'class-transformer';
import { cacheValidationMetadata } from './validation-metadata-cache';

class Line {
  @IsInt() qty!: number;
}
class Base {
  @IsString() name!: string;
}
class Cart extends Base {
  @ValidateNested({ each: true }) @Type(() => Line) lines!: Line[];
}

const errors = (cls: new () => object, body: object) =>
  validateSync(plainToInstance(cls, body), { whitelist: true })
    .map((e) => `${e.property}:${JSON.stringify(e.constraints ?? {})}:${(e.children ?? []).map((c) => c.property).join(',')}`)
    .sort();

describe('cacheValidationMetadata', () => {
  const bad = { name: 7, lines: [{ qty: 'x' }, { qty: 2 }, { qty: 1.5 }], extra: true };
  const before = errors(Cart, bad);

  beforeAll(() => cacheValidationMetadata());

  it('validates as class-validator does without it (inherited rules, nested objects, whitelisting)', () => {
    expect(before.length).toBe(2);
    for (let i = 0; i < 3; i++) expect(errors(Cart, bad)).toEqual(before);
    expect(errors(Cart, { name: 'ok', lines: [{ qty: 1 }] })).toEqual([]);
  });

  it('looks a class up once, then answers from memory', () => {
    const storage = getMetadataStorage();
    const a = storage.getTargetValidationMetadatas(Cart, '', false, false);
    expect(storage.getTargetValidationMetadatas(Cart, '', false, false)).toBe(a);
    expect(a.map((m) => m.propertyName).sort()).toEqual(['lines', 'name']);
    expect(storage.groupByPropertyName(a)).toBe(storage.groupByPropertyName(a));
  });

  it('forgets what it kept when a rule is added, so a class defined or decorated later is validated by its rules', () => {
    class Later {
      @IsInt() n!: number;
    }
    expect(errors(Later, { n: 'x' })).toHaveLength(1);
    registerDecorator({
      target: Line,
      propertyName: 'note',
      validator: { validate: (v: unknown) => v === undefined || typeof v === 'string' },
    });
    expect(errors(Cart, { name: 'ok', lines: [{ qty: 1, note: 5 }] })).toHaveLength(1);
    expect(errors(Cart, { name: 'ok', lines: [{ qty: 1, note: 'fine' }] })).toEqual([]);
  });
});
