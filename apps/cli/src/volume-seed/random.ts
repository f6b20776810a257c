import { seededRandom } from '@pos/kernel';

/** The seeder's random stream (the kernel's seeded mulberry32). */
export const rng = seededRandom;

export type Rand = ReturnType<typeof rng>;
