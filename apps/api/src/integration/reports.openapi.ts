import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ColumnKey, DIMENSIONS, metric, MetricKey, ReportDefinition } from '@pos/integration';

const figure = {
  type: 'object',
  required: ['key', 'label', 'value', 'unit', 'currency'],
  properties: {
    key: { type: 'string', example: 'net_revenue' },
    label: { type: 'string', example: 'Net revenue (before tax)' },
    value: { type: 'number', nullable: true, description: 'Money in the currency’s decimals; null when undefined (e.g. a ratio over zero)' },
    unit: { type: 'string', enum: ['money', 'count', 'quantity', 'percent', 'days', 'ratio'] },
    currency: { type: 'string', nullable: true, description: 'Currency of a money figure (reports over several currencies give one figure per currency)' },
  },
};

const column = {
  type: 'object',
  required: ['key', 'label', 'unit'],
  properties: {
    key: { type: 'string', example: 'net_sales' },
    label: { type: 'string', example: 'Net sales (before tax)' },
    unit: {
      type: 'string',
      nullable: true,
      enum: ['money', 'count', 'quantity', 'percent', 'days', 'ratio', null],
      description: 'The unit of a figure column; null for what a row is about (date, store, item, ...)',
    },
  },
};

const point = {
  type: 'object',
  required: ['x', 'y'],
  properties: {
    x: { oneOf: [{ type: 'string' }, { type: 'number' }], description: 'Category, date (YYYY-MM-DD), rank, or the hour (0-23) on a heatmap' },
    y: { oneOf: [{ type: 'number' }, { type: 'string' }], nullable: true, description: 'The value; on a heatmap the weekday (Mon..Sun)' },
    value: { type: 'number', nullable: true, description: 'Heatmaps: the value of the cell' },
  },
};

const chartSchema = {
  type: 'object',
  required: ['type', 'title', 'series'],
  properties: {
    type: { type: 'string', enum: ['line', 'bar', 'pie', 'heatmap'] },
    title: { type: 'string' },
    series: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'currency', 'data'],
        properties: { name: { type: 'string' }, currency: { type: 'string', nullable: true }, data: { type: 'array', items: point } },
      },
    },
  },
};

/** The report payload of contract 2.6 in the envelope, shared by every report. */
export const REPORT_RESPONSE = {
  type: 'object',
  required: ['success', 'data', 'meta'],
  properties: {
    success: { type: 'boolean', enum: [true] },
    data: {
      type: 'object',
      required: ['summary', 'rows', 'columns', 'charts'],
      properties: {
        summary: { type: 'array', items: figure, description: 'Named aggregates (docs/partner.md, "Report figures", defines each key)' },
        rows: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'Report rows; money next to its `currency`' },
        columns: { type: 'array', items: column, description: 'The fields of the rows, in order, labelled from the same catalogue as the summary' },
        charts: { type: 'array', items: chartSchema, description: 'Ready to plot; one series per currency' },
      },
    },
    meta: {
      type: 'object',
      required: ['filters', 'generated_at', 'as_of', 'rows'],
      properties: {
        filters: {
          type: 'object',
          required: ['date_from', 'date_to', 'store_id', 'warehouse_id', 'time_zone'],
          properties: {
            date_from: { type: 'string', format: 'date' },
            date_to: { type: 'string', format: 'date' },
            store_id: { type: 'integer', nullable: true },
            warehouse_id: { type: 'integer', nullable: true },
            time_zone: { type: 'string', description: 'The calendar of the dates: the store’s IANA zone when one store is in scope, else UTC' },
          },
        },
        generated_at: { type: 'string', format: 'date-time' },
        as_of: {
          type: 'string',
          format: 'date-time',
          description:
            'Freshness: every sale, void, return and stock movement committed before this moment is counted (rollups are applied from a journal every ROLLUP_APPLY_INTERVAL_MS, 1 s by default); equals generated_at when nothing is pending',
        },
        note: { type: 'string', description: 'What moment a current-state report (stock, receivables) describes' },
        rows: {
          type: 'object',
          required: ['current_page', 'last_page', 'per_page', 'total'],
          description:
            'The page of `data.rows` answered (`page`, `per_page`), named as the pagination meta of lists (contract 2.2); `summary` and `charts` are over every row of the period',
          properties: {
            current_page: { type: 'integer' },
            last_page: { type: 'integer', description: 'At least 1 (a report with no rows has one empty page)' },
            per_page: { type: 'integer' },
            total: { type: 'integer', description: 'Rows of the report over the whole filtered period' },
          },
        },
      },
    },
  },
};

type Schema = Record<string, unknown>;

/** The JSON type of each dimension a report row can carry (figures are numbers, null when undefined). */
const DIMENSION_TYPES: Record<keyof typeof DIMENSIONS, Schema> = {
  date: { type: 'string', format: 'date' },
  currency: { type: 'string', example: 'USD' },
  store_id: { type: 'integer' },
  store_name: { type: 'string' },
  store_code: { type: 'string', nullable: true },
  warehouse_id: { type: 'integer', nullable: true },
  warehouse_name: { type: 'string', nullable: true },
  session_id: { type: 'integer', nullable: true },
  session_status: { type: 'string', nullable: true },
  drawer_figures: { type: 'boolean' },
  cashier_id: { type: 'integer' },
  cashier_name: { type: 'string', nullable: true },
  customer_id: { type: 'integer', nullable: true },
  customer_name: { type: 'string', nullable: true },
  item_id: { type: 'integer' },
  sku: { type: 'string', nullable: true },
  name: { type: 'string', nullable: true },
  category: { type: 'string', nullable: true },
  rank: { type: 'integer' },
  class: { type: 'string', enum: ['A', 'B', 'C'] },
  price_source: { type: 'string' },
  method_code: { type: 'string' },
  method_type: { type: 'string' },
  totals_by_payment_method: { type: 'object', additionalProperties: { type: 'number' } },
  refunds_by_payment_method: { type: 'object', additionalProperties: { type: 'number' } },
  reason: { type: 'string', nullable: true },
  condition: { type: 'string' },
  rate: { type: 'string', example: '2%', description: 'The rate as a percentage (`2%`), or `exempt` for the lines of tax-exempt sales' },
  weekday: { type: 'string' },
  weekday_index: { type: 'integer' },
  hour: { type: 'integer' },
  stage: { type: 'string' },
  label: { type: 'string' },
  amount_is: { type: 'string', nullable: true },
  id: { type: 'integer' },
  number: { type: 'string' },
  sale_id: { type: 'integer', nullable: true },
  return_id: { type: 'integer', nullable: true },
  created_at: { type: 'string', format: 'date-time' },
  type: { type: 'string' },
  stock_status: { type: 'string', enum: ['out', 'low', 'in_stock'] },
  is_active: { type: 'boolean' },
  last_sold: { type: 'string', format: 'date', nullable: true },
};

function columnSchema(key: ColumnKey): Schema {
  if (key in DIMENSION_TYPES) return { description: DIMENSIONS[key as keyof typeof DIMENSIONS], ...DIMENSION_TYPES[key as keyof typeof DIMENSIONS] };
  const m = metric(key as MetricKey);
  return { type: 'number', nullable: true, description: `${m.label} (${m.unit})` };
}

/** The report payload with this report's row fields (every report's rows have a schema of their own). */
export function reportResponse(report: ReportDefinition): Schema {
  const rows = report.columns.length
    ? { type: 'object', required: [...report.columns], properties: Object.fromEntries(report.columns.map((k) => [k, columnSchema(k)])) }
    : { type: 'object', additionalProperties: true };
  const data = REPORT_RESPONSE.properties.data;
  const summaryKeys = report.summary.length ? { description: `Figures: ${report.summary.join(', ')} (per currency)` } : {};
  return {
    ...REPORT_RESPONSE,
    properties: {
      ...REPORT_RESPONSE.properties,
      data: {
        ...data,
        properties: { ...data.properties, summary: { ...data.properties.summary, ...summaryKeys }, rows: { ...data.properties.rows, items: rows } },
      },
    },
  };
}

/** OpenAPI of one report: what it is, its payload, the 422 constraints. */
export const ReportDocs = (report: ReportDefinition) =>
  applyDecorators(
    ApiOperation({ summary: report.title, description: report.description }),
    ApiOkResponse({ description: 'The report (contract 2.6)', schema: reportResponse(report) }),
    ApiUnprocessableEntityResponse({
      description:
        'Validation failed (errors keyed by field): date_from / date_to not a real YYYY-MM-DD date, date_from after date_to, a range over 366 days, ' +
        'store_id or warehouse_id not a positive integer or unknown, warehouse_id not serving store_id, page not an integer from 1 to 1,000,000, ' +
        'per_page not an integer from 1 to 1,000. A store or warehouse of another store is 403.',
    }),
  );
