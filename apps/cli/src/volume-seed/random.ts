import { seededRandom } from '@pos/kernel';

/** The seeder's random stream (the kernel's seeded mulberry32). */
export const rng = seededRandom;

export type Rand = ReturnType<typeof rng>;

/** `total` split in proportion to `weights`, the parts summing exactly to it. */
export function largestRemainder(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, p) => a + p, 0);
  for (const i of exact
    .map((e, i) => ({ i, r: e - Math.floor(e) }))
    .sort((a, b) => b.r - a.r || a.i - b.i)
    .map((x) => x.i)) {
    if (left-- <= 0) break;
    parts[i]++;
  }
  return parts;
}

/** Half away from zero of a non-negative rational. */
export const roundDiv = (num: number, den: number) => Math.floor((2 * num + den) / (2 * den));
