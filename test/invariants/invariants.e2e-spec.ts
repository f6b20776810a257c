import fc from 'fast-check';
import { Defect, Findings, KNOWN_DEFECTS } from './known-defects';
import { newWorld, startSuite, Suite } from './harness';
import { Op, sequenceArb } from './operations';
import { runSequence } from './executor';
import { checkBooks } from './checks';
import { REGRESSIONS } from './regressions';
import { profileKnob } from '../support/profile';

/**
 * Issue 23's invariant suite: random sequences of real operations through the HTTP API, each in
 * stores of its own, then every invariant from the raw records, the HTTP views and the reports.
 *   INVARIANT_SEED (23), INVARIANT_RUNS (3 sequences; 12 with TEST_PROFILE=full), INVARIANT_LENGTH (15
 *   operations each; 30 in full: test/support/profile.ts);
 *   INVARIANT_SHRINK=1 shrinks a failure to a minimal sequence (each attempt replays on new stores);
 *   INVARIANT_VERBOSE=1 prints every sequence's log and what the listed defects still hide;
 *   INVARIANT_FOCUS=<regex> fails only on failures matching it (to shrink one finding at a time).
 */
const SEED = Number(process.env.INVARIANT_SEED ?? 23);
const RUNS = profileKnob('INVARIANT_RUNS', 3, 12);
const LENGTH = profileKnob('INVARIANT_LENGTH', 15, 30);
const VERBOSE = process.env.INVARIANT_VERBOSE === '1';
const SHRINK = process.env.INVARIANT_SHRINK === '1';
const FOCUS = process.env.INVARIANT_FOCUS ? new RegExp(process.env.INVARIANT_FOCUS) : null;
/** A backstop that grows with the work (never below jest's 10 minutes), not a timing assertion. */
const TIMEOUT = SHRINK ? 4 * 3_600_000 : Math.max(600_000, RUNS * LENGTH * 4_000);

/** Runs one sequence on new stores and checks everything; throws with the sequence and its log on a failure. */
export async function runAndCheck(suite: Suite, ops: Op[], seen?: Map<Defect, number>): Promise<void> {
  const f = new Findings();
  const w = await newWorld(suite);
  await runSequence(w, ops, f);
  await checkBooks(w, f);
  for (const [d, list] of f.known) seen?.set(d, (seen.get(d) ?? 0) + list.length);
  if (VERBOSE) console.log(`${w.log.join('\n')}\n${[...f.known].map(([k, v]) => `${k}: ${v.length}\n  ${v.slice(0, 5).join('\n  ')}`).join('\n')}`);
  const failures = FOCUS ? f.failures.filter((x) => FOCUS.test(x)) : f.failures;
  if (failures.length)
    throw new Error(
      `${failures.length} invariant failures:\n${failures.slice(0, 40).join('\n')}\n--- operations ---\n${JSON.stringify(ops)}\n--- log ---\n${w.log.join('\n')}`,
    );
}

describe('The books balance (issue 23): random sequences through the API', () => {
  let suite: Suite;
  beforeAll(async () => {
    suite = await startSuite();
  });
  afterAll(() => suite?.t.close());

  it(
    `holds every invariant after ${RUNS} sequences of ${LENGTH} operations (seed ${SEED})`,
    async () => {
      const seen = new Map<Defect, number>();
      await fc.assert(
        fc.asyncProperty(sequenceArb(LENGTH), (ops) => runAndCheck(suite, ops, seen)),
        { seed: SEED, numRuns: RUNS, endOnFailure: !SHRINK },
      );
      if (VERBOSE)
        console.log(
          `listed defects: ${KNOWN_DEFECTS.map((d) => `${d} ${seen.get(d) ?? 0} mismatches${seen.get(d) ? '' : ' (nothing found: fixed?)'}`).join('; ')}`,
        );
    },
    TIMEOUT,
  );

  for (const r of REGRESSIONS) it(`shrunk counterexample [${r.defect}]: ${r.title}`, () => runAndCheck(suite, r.ops));
});
