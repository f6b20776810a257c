import { AppConfig } from '@pos/platform';
import { PasswordCheckGate, PasswordChecksBusyError } from './password-check.gate';
import { PasswordHasher } from './ports';

/** A hasher whose verifications finish only when the test says so. */
class HeldHasher extends PasswordHasher {
  readonly pending: { plain: string; finish: (ok: boolean) => void; fail: (e: Error) => void }[] = [];
  hash(): Promise<string> {
    return Promise.resolve('h');
  }
  verify(_hash: string, plain: string): Promise<boolean> {
    return new Promise((finish, fail) => this.pending.push({ plain, finish, fail }));
  }
}

const gateOf = (hasher: PasswordHasher, concurrency: number, queue: number) =>
  new PasswordCheckGate(hasher, { passwordVerify: { concurrency, queue } } as AppConfig);
const tick = () => new Promise((r) => setImmediate(r));

describe('PasswordCheckGate', () => {
  it('runs at most `concurrency` verifications, queues `queue` more in order, and refuses the rest at once', async () => {
    const hasher = new HeldHasher();
    const gate = gateOf(hasher, 2, 3);
    const results = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((p) =>
      gate.verify('h', p).then(
        (ok) => ({ ok }),
        (error: unknown) => ({ error }),
      ),
    );
    await tick();
    expect(hasher.pending.map((p) => p.plain)).toEqual(['a', 'b']);
    expect(gate.load).toEqual({ running: 2, waiting: 3 });
    const refused = await Promise.all(results.slice(5));
    for (const r of refused) expect((r as { error: unknown }).error).toBeInstanceOf(PasswordChecksBusyError);
    expect(new PasswordChecksBusyError().retryAfterSeconds).toBeGreaterThan(0);

    // Each finished verification hands its slot to the oldest waiter; never more than two run.
    hasher.pending.shift()!.finish(false);
    await tick();
    expect(hasher.pending.map((p) => p.plain)).toEqual(['b', 'c']);
    hasher.pending.shift()!.fail(new Error('boom')); // a failing verification frees its slot too
    await tick();
    expect(hasher.pending.map((p) => p.plain)).toEqual(['c', 'd']);
    while (hasher.pending.length) {
      hasher.pending.shift()!.finish(true);
      await tick();
    }
    expect(await Promise.all(results.slice(0, 5))).toEqual([{ ok: false }, { error: new Error('boom') }, { ok: true }, { ok: true }, { ok: true }]);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('with no queue refuses whatever finds every slot taken', async () => {
    const hasher = new HeldHasher();
    const gate = gateOf(hasher, 1, 0);
    const first = gate.verify('h', 'x');
    await expect(gate.verify('h', 'y')).rejects.toBeInstanceOf(PasswordChecksBusyError);
    await tick();
    hasher.pending.shift()!.finish(true);
    await expect(first).resolves.toBe(true);
    const again = gate.verify('h', 'z');
    await tick();
    hasher.pending.shift()!.finish(false);
    await expect(again).resolves.toBe(false);
  });
});
