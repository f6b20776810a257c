import { BadRequestError, PreconditionFailedError } from '@pos/kernel';
import { entityTag, expectedVersions, isConditionalPath, parseIfMatch } from './conditional';

describe('conditional requests', () => {
  it('reads the versions an If-Match names: the tags GET and PUT send, bare numbers, lists, *', () => {
    const tag = entityTag(Buffer.from('{"success":true}'), 7);
    expect(tag).toMatch(/^W\/"v7-[0-9a-f]{40}"$/);
    expect(parseIfMatch(tag)).toEqual([7]);
    expect(parseIfMatch('"3"')).toEqual([3]);
    expect(parseIfMatch('W/"v2", "5" ,W/"v9-abc"')).toEqual([2, 5, 9]);
    expect(parseIfMatch(' * ')).toBe('*');
    expect(parseIfMatch(undefined)).toBeUndefined();
    // Well-formed tags that name no version (a list page's hash, a comma inside a tag) never match.
    expect(parseIfMatch(entityTag(Buffer.from('[]')))).toEqual([]);
    expect(parseIfMatch('"a,b", "x"')).toEqual([]);
  });

  it('refuses a malformed If-Match with 400 invalid_if_match', () => {
    for (const bad of ['', '3', '"3', 'W/3', '"a" "b"', 'W/ "3"', '*, "3"']) {
      expect(() => parseIfMatch(bad)).toThrow(BadRequestError);
    }
  });

  it('combines the header and the body version: either, both when they agree, 412 when they do not', () => {
    expect(expectedVersions(undefined, undefined, 'item')).toBeUndefined();
    expect(expectedVersions('*', undefined, 'item')).toBeUndefined();
    expect(expectedVersions('"4"', undefined, 'item')).toEqual([4]);
    expect(expectedVersions(undefined, 4, 'item')).toEqual([4]);
    expect(expectedVersions('*', 4, 'item')).toEqual([4]);
    expect(expectedVersions('"3", "4"', 4, 'item')).toEqual([4]);
    expect(() => expectedVersions('"3"', 4, 'item')).toThrow(PreconditionFailedError);
  });

  it('conditional paths are an allow-list: records and feeds yes, tokens and secrets no', () => {
    for (const path of ['/api/v1/items', '/api/v1/items/{item}', '/api/v1/integration/data/sales', '/api/v1/pos/products/3', '/api/v1/reports/sales']) {
      expect(isConditionalPath(path)).toBe(true);
    }
    for (const path of [
      '/api/v1/auth/me',
      '/api/v1/webhooks',
      '/api/v1/api-applications/1',
      '/api/v1/sync/initial',
      '/api/v1/audit-log',
      '/api/v1/pos/checkout',
      '/api/docs',
    ]) {
      expect(isConditionalPath(path)).toBe(false);
    }
  });
});
