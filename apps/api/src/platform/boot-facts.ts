import type { NestExpressApplication } from '@nestjs/platform-express';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { BootFacts } from './boot-summary';

interface RouterLayer {
  route?: { methods: Record<string, boolean> };
}

/** Reads what the boot summary reports: the migrations table against the code's list, and Express's routes. */
export async function readBootFacts(app: NestExpressApplication): Promise<BootFacts> {
  const db = app.get<DataSource>(getDataSourceToken());
  const [row] = (await db.query('SELECT COUNT(*) AS n FROM migrations')) as { n: number | string }[];
  // Express 5 keeps the router at `router` (4 had `_router`).
  const express = app.getHttpAdapter().getInstance() as { router?: { stack: RouterLayer[] }; _router?: { stack: RouterLayer[] } };
  const router = express.router ?? express._router;
  const routes = (router?.stack ?? []).reduce((n, layer) => n + (layer.route ? Object.keys(layer.route.methods).length : 0), 0);
  return { migrations: { applied: Number(row.n), known: db.migrations.length }, routes };
}
