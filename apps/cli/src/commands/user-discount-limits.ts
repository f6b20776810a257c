import { defineCommand, Flags } from '../cli/command';
import { CliRefusal, EXIT } from '../cli/errors';
import { str, text } from '../cli/values';

export default defineCommand({
  name: 'user:discount-limits',
  summary: "Set a user's own discount limits over the role's (and a manager's approval PIN)",
  flags: {
    email: { value: 'EMAIL', required: true, description: "the user's email" },
    'max-percent': { value: 'PERCENT|role', description: 'largest discount in percent, 0-100, at most 2 decimals; "role" falls back to the role\'s' },
    'max-amount': { value: 'AMOUNT|role', description: 'largest discount amount, at most 2 decimals; "role" falls back to the role\'s' },
    pin: { value: 'DIGITS', description: 'approval PIN, 4 to 8 digits' },
  },
  examples: [
    'user:discount-limits --email cashier@example.com --max-percent 15 --max-amount 50.00',
    'user:discount-limits --email cashier@example.com --max-percent role --max-amount role',
  ],
  async run(flags, ctx) {
    const email = text(flags, 'email', 255);
    const limits = { maxPercentBp: limit(flags, 'max-percent'), maxAmount: limit(flags, 'max-amount'), pin: str(flags, 'pin') };
    if (limits.maxPercentBp != null && limits.maxPercentBp > 10000) throw new CliRefusal('--max-percent must be between 0 and 100', EXIT.refused);
    if (limits.pin !== undefined && !/^\d{4,8}$/.test(limits.pin)) throw new CliRefusal('--pin must be 4 to 8 digits', EXIT.refused);
    const { IDENTITY_FEATURES, UserAdminService } = await import('../runtime/identity');
    return (await ctx.nest(IDENTITY_FEATURES)).get(UserAdminService).setDiscountLimits(email, limits);
  },
});

/** "15" or "35.50" (hundredths: basis points, or minor units of a two-decimal currency), "role" (null), or absent. */
function limit(flags: Flags, name: string): number | null | undefined {
  const v = str(flags, name);
  if (v === undefined) return undefined;
  if (v === 'role') return null;
  if (!/^\d+(\.\d{1,2})?$/.test(v)) throw new CliRefusal(`--${name} must be a number with at most 2 decimals, or "role" (got "${v}")`);
  return Math.round(Number(v) * 100);
}
