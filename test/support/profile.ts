/**
 * The test profiles (issue 27), named in one place. `npm test` runs every suite in its quick
 * profile; TEST_PROFILE=full (CI's long stage) runs the deeper ones. An explicit knob always wins:
 *   FUZZ_RUNS          generated requests per operation, test/hardening/fuzz (quick 5, full 40)
 *   INVARIANT_RUNS     random sequences, test/invariants (quick 3, full 12)
 *   INVARIANT_LENGTH   operations per sequence (quick 15, full 30)
 * TEST_DB=mysql (with TEST_MYSQL_HOST, TEST_REDIS_URL) picks the database, independently.
 */
export const FULL_PROFILE = process.env.TEST_PROFILE === 'full';

/** The knob `name` from the environment, else the profile's figure. */
export function profileKnob(name: string, quick: number, full: number): number {
  const set = process.env[name];
  if (set === undefined || set === '') return FULL_PROFILE ? full : quick;
  const n = Number(set);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, not "${set}"`);
  return n;
}
