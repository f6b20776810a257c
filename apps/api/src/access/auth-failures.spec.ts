import { ThrottlerException } from '@nestjs/throttler';
import type { Response } from 'express';
import { UnauthenticatedError } from '@pos/kernel';
import { hashToken } from '@pos/identity';
import { AppConfig, MemoryRateLimitStorage } from '@pos/platform';
import { AuthFailureLimiter } from './auth-failures';

function fakeResponse(): Response & { headers: Record<string, unknown> } {
  const headers: Record<string, unknown> = {};
  return { headers, setHeader: (k: string, v: unknown) => (headers[k] = v) } as never;
}

const config = (authFailures: number, authCacheTtlMs = 5000) => ({ rateLimit: { authFailures, keyPrefix: 'test' }, authCacheTtlMs }) as AppConfig;

describe('AuthFailureLimiter', () => {
  const ip = '203.0.113.7';

  it('counts failures per IP: 401 within the budget, then 429 with Retry-After, and refuses unknown tokens from that IP before any lookup', async () => {
    const storage = new MemoryRateLimitStorage();
    const limiter = new AuthFailureLimiter(storage, config(3));
    const statuses: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = fakeResponse();
      await limiter
        .fail(ip, res)
        .catch((e: unknown) => statuses.push(e instanceof UnauthenticatedError ? '401' : e instanceof ThrottlerException ? '429' : 'other'));
      expect(res.headers['X-RateLimit-Limit']).toBe(3);
      expect(res.headers['X-RateLimit-Remaining']).toBe(Math.max(0, 3 - i - 1));
      if (i === 3) expect(res.headers['Retry-After']).toBeGreaterThan(0);
    }
    expect(statuses).toEqual(['401', '401', '401', '429']);
    expect(limiter.triage(ip, hashToken('made-up'))).toBe('refuse');
    const res = fakeResponse();
    expect(() => limiter.refuse(ip, res)).toThrow(ThrottlerException);
    expect(res.headers['Retry-After']).toBeGreaterThan(0);
    // another address is not concerned
    expect(limiter.triage('198.51.100.1', hashToken('made-up'))).toBe('look-up');
  });

  it('still looks up tokens seen valid or issued here from an address past its budget', async () => {
    const limiter = new AuthFailureLimiter(new MemoryRateLimitStorage(), config(1));
    limiter.resolved(hashToken('seen'));
    limiter.issued('issued');
    for (let i = 0; i < 2; i++) await limiter.fail(ip, fakeResponse()).catch(() => undefined);
    expect(limiter.triage(ip, hashToken('other'))).toBe('refuse');
    expect(limiter.triage(ip, hashToken('seen'))).toBe('look-up');
    expect(limiter.triage(ip, hashToken('issued'))).toBe('look-up');
    // once it stops resolving (revoked) it is no longer known
    limiter.unresolvedToken(hashToken('seen'));
    expect(limiter.triage(ip, hashToken('seen'))).toBe('refuse');
  });

  it('remembers a token that did not resolve for AUTH_CACHE_TTL_MS (none when 0)', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    try {
      const limiter = new AuthFailureLimiter(new MemoryRateLimitStorage(), config(100, 5000));
      limiter.unresolvedToken('h1');
      expect(limiter.triage(ip, 'h1')).toBe('fail');
      now.mockReturnValue(1_005_001);
      expect(limiter.triage(ip, 'h1')).toBe('look-up');
      const off = new AuthFailureLimiter(new MemoryRateLimitStorage(), config(100, 0));
      off.unresolvedToken('h2');
      expect(off.triage(ip, 'h2')).toBe('look-up');
    } finally {
      now.mockRestore();
    }
  });

  it('keeps a bounded memory under a flood of distinct tokens', () => {
    const limiter = new AuthFailureLimiter(new MemoryRateLimitStorage(), config(100));
    for (let i = 0; i < 10_050; i++) limiter.unresolvedToken(`h${i}`);
    const size = (limiter as unknown as { unresolved: { until: Map<string, number> } }).unresolved.until.size;
    expect(size).toBe(10_000);
    expect(limiter.triage(ip, 'h0')).toBe('look-up'); // the oldest went first
    expect(limiter.triage(ip, 'h10049')).toBe('fail');
  });
});
