import 'reflect-metadata';
import { Controller, ExecutionContext, Get, Query } from '@nestjs/common';
import { ValidationFailedError } from '@pos/kernel';
import { OptionalInt, OptionalString } from './validators';
import { knownQueryKeys, UnknownQueryGuard } from './unknown-query';

class BaseQuery {
  @OptionalInt() page?: number;
}
class FeedQuery extends BaseQuery {
  @OptionalString() status?: string;
}

@Controller('x')
class Feeds {
  @Get('a')
  a(@Query() q: FeedQuery, @Query('extra') extra?: string) {
    return [q, extra];
  }

  @Get('b')
  b() {
    return null;
  }
}

const ctx = (handler: (...args: never[]) => unknown, query: Record<string, unknown>) =>
  ({
    getClass: () => Feeds,
    getHandler: () => handler,
    switchToHttp: () => ({ getRequest: () => ({ query }) }),
  }) as unknown as ExecutionContext;

describe('UnknownQueryGuard', () => {
  const guard = new UnknownQueryGuard();

  it("knows a route's DTO fields (inherited ones too) and its named @Query parameters", () => {
    expect([...knownQueryKeys(Feeds, Feeds.prototype.a)].sort()).toEqual(['extra', 'page', 'status']);
    expect([...knownQueryKeys(Feeds, Feeds.prototype.b)]).toEqual([]);
  });

  it('lets known parameters through and refuses each unknown one on its own key', () => {
    expect(guard.canActivate(ctx(Feeds.prototype.a, { page: '2', status: 'x', extra: '1' }))).toBe(true);
    expect(guard.canActivate(ctx(Feeds.prototype.b, {}))).toBe(true);
    try {
      guard.canActivate(ctx(Feeds.prototype.a, { page: '1', stauts: 'x', 'a[b]': '1' }));
      throw new Error('expected a 422');
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationFailedError);
      expect((e as ValidationFailedError).fields).toEqual({ stauts: ['Unknown query parameter.'], 'a[b]': ['Unknown query parameter.'] });
    }
    expect(() => guard.canActivate(ctx(Feeds.prototype.b, { page: '1' }))).toThrow(ValidationFailedError);
  });

  it('names at most 20 unknown parameters', () => {
    const query = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, '1']));
    try {
      guard.canActivate(ctx(Feeds.prototype.b, query));
    } catch (e) {
      expect(Object.keys((e as ValidationFailedError).fields)).toHaveLength(20);
      return;
    }
    throw new Error('expected a 422');
  });
});
