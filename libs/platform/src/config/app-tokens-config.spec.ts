import { loadConfig } from './app-config';

describe('API application token policy (APP_TOKEN_TTL_MINUTES, APP_TOKEN_EXPIRY_WARNING_DAYS)', () => {
  it('gives partner tokens a year by default, warned 30 days ahead; 0 means never', () => {
    expect(loadConfig({}).appTokens).toEqual({ ttlMinutes: 525_600, expiryWarningDays: 30 });
    expect(loadConfig({ APP_TOKEN_TTL_MINUTES: '0', APP_TOKEN_EXPIRY_WARNING_DAYS: '0' }).appTokens).toEqual({ ttlMinutes: 0, expiryWarningDays: 0 });
    expect(loadConfig({}).tokenTtlMinutes).toBe(43_200); // staff tokens unchanged
  });

  it('refuses values out of range, naming the variable', () => {
    expect(() => loadConfig({ APP_TOKEN_TTL_MINUTES: '-1' })).toThrow(/APP_TOKEN_TTL_MINUTES/);
    expect(() => loadConfig({ APP_TOKEN_TTL_MINUTES: '5256001' })).toThrow(/APP_TOKEN_TTL_MINUTES/);
    expect(() => loadConfig({ APP_TOKEN_EXPIRY_WARNING_DAYS: 'soon' })).toThrow(/APP_TOKEN_EXPIRY_WARNING_DAYS/);
  });
});
