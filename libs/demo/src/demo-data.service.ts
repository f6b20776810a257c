import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DEFAULT_ROLES, UserAdminService } from '@pos/identity';
import { RebuildReport, RollupApplier, RollupRebuildService } from '@pos/integration';
import { APP_CONFIG, AppConfig } from '@pos/platform';
import { DemoSeedReport, seedDemoData } from './demo.seed';
import { DemoHistoryService } from './history/demo-history.service';

/**
 * Loads the demo data set in one transaction (idempotent). The seed writes the opening stock as
 * ledger rows directly (stock = sum of movements), which the report rollups, kept from the
 * catalog's facts, never hear of: when it wrote any, the rollups are rebuilt from the raw records
 * right after it commits, so a fresh demo database's inventory reports agree with its ledger.
 * The trading history (DemoHistoryService) goes through the use cases and the report journal.
 */
@Injectable()
export class DemoDataService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly users: UserAdminService,
    private readonly rollups: RollupRebuildService,
    private readonly applier: RollupApplier,
    private readonly history: DemoHistoryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The demo data set, then (unless `historyDays` is 0, default DEMO_HISTORY_DAYS) its trading
   * history, when the database has no sales yet. With a history, the demo set is dated at the
   * history's start, so the opening stock precedes the sales. The rollups are rebuilt right after
   * the demo set (its opening stock); the history's facts reach them as live trading's do, through
   * the report journal, applied before this returns.
   */
  async seed(options: { historyDays?: number } = {}): Promise<DemoSeedReport & { history?: Record<string, number>; rollups?: RebuildReport }> {
    const days = options.historyDays ?? this.config.demoHistoryDays;
    const trade = days > 0 && !(await this.hasSales());
    const now = trade ? this.history.historyStart(days) : undefined;
    const report = await this.db.transaction((em) => seedDemoData(em, { hashPassword: (p) => this.users.hashSecret(p), now }, DEFAULT_ROLES));
    const rollups = report.created.stock_movements ? await this.rollups.rebuild(() => undefined) : undefined;
    if (!trade) return rollups ? { ...report, rollups } : report;
    const history = await this.history.trade(days);
    await this.applier.applyPending();
    return { ...report, history, ...(rollups && { rollups }) };
  }

  async isEmpty(): Promise<boolean> {
    const [row] = await this.db.query('SELECT COUNT(*) AS n FROM users');
    return Number((row as { n: number | string }).n) === 0;
  }

  private async hasSales(): Promise<boolean> {
    return (await this.db.query('SELECT id FROM sales LIMIT 1')).length > 0;
  }
}

/** On the first embedded start (empty database, SEED_DEMO_ON_FIRST_START), load the demo data. */
@Injectable()
export class DemoDataOnFirstStart implements OnApplicationBootstrap {
  private readonly logger = new Logger('DemoData');

  constructor(
    private readonly demo: DemoDataService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.seedDemoOnFirstStart || !(await this.demo.isEmpty())) return;
    const started = Date.now();
    const report = await this.demo.seed();
    const c = report.created;
    const h = report.history;
    const trading = h ? `; ${h.days} days of trading (${h.sales} sales, ${h.returns} returns, ${h.sessions} till sessions)` : '';
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    this.logger.log(
      `Demo data loaded in ${seconds} s: ${c.stores} stores, ${c.items} items${trading}. Sign in as admin@example.com / password (every demo user: README)`,
    );
    this.logger.debug(`Demo rows: ${JSON.stringify({ ...c, ...(h && { history: h }) })}`);
  }
}
