/**
 * Validating a body in process, the request's biggest share of the service's own work on a big
 * cart: the service's pipe (AppValidationPipe: preflight, the instance builder, the validation
 * plan) next to Nest's stock ValidationPipe with the same options (class-transformer, then
 * class-validator), the bare baseline, in the same process, alternated in rounds. Bodies: the
 * pricing bench's 50-line cart and the checkout bench's 5-line sale. Each body is parsed from its
 * JSON for every call (as express.json hands it over); the parse alone is timed as well. Queries:
 * the POS search's and the sales feed's, parsed as Express's simple query parser parses them.
 * Prints us per body for each pipe and the ratio.
 *   npm run build && node bench/validation.bench.js   (BENCH_DIST=<repo>/dist, BENCH_ROUNDS=5, BENCH_CALLS=3000)
 */
const querystring = require('node:querystring');
const { DIST, built } = require('./same-work');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CALLS = Number(process.env.BENCH_CALLS ?? 3000);

const cart = {
  items: Array.from({ length: 50 }, (_, i) => ({ id: 1 + (i % 31), qty: 1 + (i % 6) })),
  cart_discount_type: 'percent',
  cart_discount_value: 5,
};
const sale = {
  store_id: 1,
  items: ['BEV-001', 'BEV-003', 'SNK-001', 'GRO-002', 'HSE-001'].map((_, i) => ({ id: i + 1, qty: 1 + (i % 2) })),
  payments: [{ payment_method_code: 'cash', amount: 27.85, tendered: 30 }],
  total_amount: 27.85,
  idempotency_key: '6f1c2a9e-0d4b-4c55-9a57-3d1e2b7f8a10',
};

/** A body as express.json hands it over, or a query string as Express's simple parser does. */
const parserOf = (metadata) => (metadata.type === 'query' ? (text) => querystring.parse(text) : (text) => JSON.parse(text));

async function timeOf(pipe, text, metadata) {
  const parse = parserOf(metadata);
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await pipe.transform(parse(text), metadata);
  return Number(process.hrtime.bigint() - started) / 1000 / CALLS;
}

async function main() {
  require(require.resolve('reflect-metadata', { paths: [DIST] }));
  const { ValidationPipe } = require(require.resolve('@nestjs/common', { paths: [DIST] }));
  const { AppValidationPipe } = built('apps/api/src/http/validation');
  const { PricingCartDto } = built('apps/api/src/pricing/pricing.dto');
  const { CheckoutDto } = built('apps/api/src/sales/sales.dto');
  const { PosSearchQuery } = built('apps/api/src/pricing/pricing.dto');
  const { SalesFeedQuery } = built('apps/api/src/integration/feeds.dto');
  const stock = new ValidationPipe({ whitelist: true, transform: true, forbidUnknownValues: false, transformOptions: { enableImplicitConversion: false } });
  const service = new AppValidationPipe();
  console.log(`dist ${DIST}; ${CALLS} calls a measurement, medians of ${ROUNDS} rounds`);
  for (const [name, text, dto, type] of [
    ['pricing cart, 50 lines', JSON.stringify(cart), PricingCartDto, 'body'],
    ['checkout, 5 lines', JSON.stringify(sale), CheckoutDto, 'body'],
    ['POS search query', 'q=4006381333907&store_id=1', PosSearchQuery, 'query'],
    ['sales feed query', 'store_id=1&per_page=50&page=3&from=2026-11-01&to=2026-11-27', SalesFeedQuery, 'query'],
  ]) {
    const metadata = { type, metatype: dto, data: '' };
    const parseOne = parserOf(metadata);
    const checked = await service.transform(parseOne(text), metadata);
    if (!(checked instanceof dto)) throw new Error(`${name}: the service's pipe did not accept the ${type}`);
    const runs = { parse: [], stock: [], service: [] };
    for (let r = 0; r < ROUNDS + 1; r++) {
      const parse = (() => {
        const started = process.hrtime.bigint();
        for (let i = 0; i < CALLS; i++) parseOne(text);
        return Number(process.hrtime.bigint() - started) / 1000 / CALLS;
      })();
      const pair =
        r % 2
          ? [await timeOf(service, text, metadata), await timeOf(stock, text, metadata)].reverse()
          : [await timeOf(stock, text, metadata), await timeOf(service, text, metadata)];
      if (r === 0) continue; // the first round warms both up
      runs.parse.push(parse);
      runs.stock.push(pair[0]);
      runs.service.push(pair[1]);
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const [parse, stockUs, serviceUs] = [median(runs.parse), median(runs.stock) - median(runs.parse), median(runs.service) - median(runs.parse)];
    console.log(name);
    console.log(`  parse alone                 ${parse.toFixed(1).padStart(7)} us`);
    console.log(`  Nest ValidationPipe (bare)  ${stockUs.toFixed(1).padStart(7)} us a call (parse excluded)`);
    console.log(
      `  AppValidationPipe           ${serviceUs.toFixed(1).padStart(7)} us a call (parse excluded): ${((serviceUs / stockUs) * 100).toFixed(1)}% of the bare pipe's time`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
