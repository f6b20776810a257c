import { roundHalfAwayFromZero } from '@pos/kernel';
import { LineBooks } from './pricing.types';

/**
 * A line's books: gross, discounts and net before tax in either tax mode, so that
 * gross - discounts + tax = total. Tax-exclusive: the shelf amounts themselves. Tax-inclusive:
 * each amount without the tax it holds, ex(x) = x - round(x * rate / (1 + rate)); the discounts
 * are the differences of ex() along the chain gross -> rules -> bundles -> manual -> cart -> net,
 * so they are never negative and sum exactly to ex(gross) - ex(net); ex(net) is total - tax
 * (an exempt sale pays ex(net): its tax is 0 and `exemptedTax` is what it did not pay).
 */
export function booksBeforeTax(
  shelf: { gross: number; ruleDiscount: number; bundleDiscount: number; manualDiscount: number; cartDiscount: number },
  taxRateBp: number,
  pricesIncludeTax: boolean,
): LineBooks {
  const steps = [shelf.ruleDiscount, shelf.bundleDiscount, shelf.manualDiscount, shelf.cartDiscount];
  const chain = [shelf.gross];
  for (const d of steps) chain.push(chain[chain.length - 1] - d);
  const rate = pricesIncludeTax ? Math.max(0, taxRateBp) : 0;
  const e = chain.map((x) => (rate === 0 ? x : x - Number(roundHalfAwayFromZero(BigInt(x) * BigInt(rate), BigInt(10000 + rate)))));
  return { gross: e[0], ruleDiscount: e[0] - e[1], bundleDiscount: e[1] - e[2], manualDiscount: e[2] - e[3], cartDiscount: e[3] - e[4], net: e[4] };
}
