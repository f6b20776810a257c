import { Progress } from './progress';

const capture = (isTTY: boolean) => {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 100, write: (c: string) => chunks.push(c) } };
};

describe('Progress', () => {
  it('prints a plain line per tenth of the work when stderr is not a TTY, then a done line', () => {
    const { chunks, stream } = capture(false);
    let t = 0;
    const p = new Progress('writing sales', 1000, 'sales', stream, () => (t += 10));
    for (let i = 1; i <= 1000; i++) p.update(i);
    p.finish();
    expect(chunks).toHaveLength(10);
    expect(chunks[0]).toMatch(/^writing sales: 10% 100\/1,000 sales [\d,]+\/s ETA \d+s\n$/);
    expect(chunks[9]).toMatch(/^writing sales: 100% 1,000\/1,000 sales .* done\n$/);
  });

  it('redraws one bar in place on a TTY, with rate and ETA', () => {
    const { chunks, stream } = capture(true);
    let t = 0;
    const p = new Progress('writing rollups', 200, 'rows', stream, () => (t += 10));
    for (let i = 1; i <= 200; i++) p.update(i);
    p.finish();
    expect(chunks.every((c) => c.startsWith('\r'))).toBe(true);
    expect(chunks.length).toBeLessThan(60); // at most one redraw per 100 ms of (fake) time
    expect(chunks[1]).toMatch(/^\rwriting rollups \[#*-+\] \d+% \d+\/200 rows [\d,]+\/s ETA \d+s/);
    expect(chunks[chunks.length - 1]).toMatch(/\[#+\] 100% 200\/200 rows .*\n$/);
  });

  it('prints one line for an update that crosses several tenths', () => {
    const { chunks, stream } = capture(false);
    const p = new Progress('writing rollups', 100, 'rows', stream);
    p.update(45);
    p.update(50);
    p.update(100);
    p.finish();
    expect(chunks.map((c) => c.replace(/ [\d,]+\/s ETA \w+/, ''))).toEqual([
      'writing rollups: 45% 45/100 rows\n',
      'writing rollups: 50% 50/100 rows\n',
      'writing rollups: 100% 100/100 rows done\n',
    ]);
  });

  it('stays quiet on an unknown total (not a TTY) until it finishes', () => {
    const { chunks, stream } = capture(false);
    const p = new Progress('reading', 0, 'records', stream);
    p.update(50);
    p.finish();
    expect(chunks).toEqual([expect.stringMatching(/^reading: 0% 50\/0 records .* done\n$/)]);
  });
});
