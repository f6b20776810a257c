/**
 * Progress of long work on stderr. On a TTY: one bar redrawn in place (done/total, rate, ETA),
 * at most every 100 ms. Otherwise (a log file, CI, a pipe): a plain line at every tenth of the
 * total, so the number of lines depends on the work, not on how long it takes.
 */
export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export class Progress {
  private done = 0;
  private readonly started: number;
  private lastDraw = 0;
  private nextStep = 1;
  private finished = false;

  constructor(
    private readonly label: string,
    private total: number,
    private readonly unit = 'rows',
    private readonly out: ProgressStream = process.stderr,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** Sets how much is done (absolute); `total` may be corrected as the work learns it. */
  update(done: number, total = this.total): void {
    this.done = done;
    this.total = Math.max(total, 0);
    if (this.out.isTTY) {
      const t = this.now();
      if (t - this.lastDraw >= 100 || done >= this.total) {
        this.lastDraw = t;
        this.out.write(`\r${this.line(true)}\u001b[K`);
      }
      return;
    }
    if (this.total <= 0) return;
    const step = this.nextStep;
    while (this.nextStep <= 10 && done >= (this.total * this.nextStep) / 10) this.nextStep++;
    // one line however many tenths this update crossed; the last tenth is finish()'s "done" line
    if (this.nextStep > step && done < this.total) this.out.write(`${this.line(false)}\n`);
  }

  increment(by = 1): void {
    this.update(this.done + by);
  }

  /** The last line: the bar completed (TTY) or a final "done" line. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.out.write(this.out.isTTY ? `\r${this.line(true)}\u001b[K\n` : `${this.line(false)} done\n`);
  }

  private line(bar: boolean): string {
    const elapsed = Math.max((this.now() - this.started) / 1000, 0.001);
    const rate = this.done / elapsed;
    const share = this.total > 0 ? Math.min(this.done / this.total, 1) : 0;
    const eta = rate > 0 && this.total > this.done ? (this.total - this.done) / rate : 0;
    const figures = `${Math.round(share * 100)}% ${fmt(this.done)}/${fmt(this.total)} ${this.unit} ${fmt(Math.round(rate))}/s ETA ${duration(eta)}`;
    if (!bar) return `${this.label}: ${figures}`;
    const width = Math.max(10, Math.min(30, (this.out.columns ?? 80) - this.label.length - figures.length - 6));
    const full = Math.round(share * width);
    return `${this.label} [${'#'.repeat(full)}${'-'.repeat(width - full)}] ${figures}`;
  }
}

const fmt = (n: number) => n.toLocaleString('en-US');

function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
