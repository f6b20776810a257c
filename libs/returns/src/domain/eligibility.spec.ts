import { returnEligibility } from './eligibility';

describe('returnEligibility', () => {
  const soldAt = new Date('2026-01-01T10:00:00Z');
  const day = 86_400_000;

  it('allows completed and partially refunded sales inside the window while units are left', () => {
    expect(returnEligibility({ status: 'completed', soldAt }, new Date(soldAt.getTime() + 30 * day), 30, 1)).toMatchObject({ eligible: true, reason: null });
    expect(returnEligibility({ status: 'partially_refunded', soldAt }, soldAt, 30, 2).eligible).toBe(true);
  });

  it('says why not', () => {
    const now = new Date(soldAt.getTime() + day);
    expect(returnEligibility({ status: 'voided', soldAt }, now, 30, 3).reason).toBe('sale_voided');
    expect(returnEligibility({ status: 'refunded', soldAt }, now, 30, 0).reason).toBe('sale_refunded');
    expect(returnEligibility({ status: 'completed', soldAt }, new Date(soldAt.getTime() + 30 * day + 1), 30, 3).reason).toBe('return_window_expired');
    expect(returnEligibility({ status: 'completed', soldAt }, now, 0, 3).reason).toBe('return_window_expired');
    expect(returnEligibility({ status: 'partially_refunded', soldAt }, now, 30, 0).reason).toBe('nothing_returnable');
  });
});
