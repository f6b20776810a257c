import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DEFAULT_ROLES, UserAdminService } from '@pos/identity';
import { RebuildReport, RollupRebuildService } from '@pos/integration';
import { APP_CONFIG, AppConfig, DemoSeedReport, seedDemoData } from '@pos/platform';

/**
 * Loads the demo data set in one transaction (idempotent). The seed writes the opening stock as
 * ledger rows directly (stock = sum of movements), which the report rollups, kept from the
 * catalog's facts, never hear of: when it wrote any, the rollups are rebuilt from the raw records
 * right after it commits, so a fresh demo database's inventory reports agree with its ledger.
 */
@Injectable()
export class DemoDataService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly users: UserAdminService,
    private readonly rollups: RollupRebuildService,
  ) {}

  async seed(): Promise<DemoSeedReport & { rollups?: RebuildReport }> {
    const report = await this.db.transaction((em) => seedDemoData(em, { hashPassword: (p) => this.users.hashSecret(p) }, DEFAULT_ROLES));
    if (!report.created.stock_movements) return report;
    return { ...report, rollups: await this.rollups.rebuild(() => undefined) };
  }

  async isEmpty(): Promise<boolean> {
    const [row] = await this.db.query('SELECT COUNT(*) AS n FROM users');
    return Number((row as { n: number | string }).n) === 0;
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
    const report = await this.demo.seed();
    this.logger.log(`Demo data loaded on first start: ${JSON.stringify(report.created)}`);
  }
}
