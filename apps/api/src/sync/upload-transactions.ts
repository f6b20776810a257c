import { amountToMinor, FieldErrors, ValidationFailedError } from '@pos/kernel';
import { UploadCommand, UploadTransaction } from '@pos/sync';
import { AppValidationPipe } from '../http/validation';
import { requestFingerprint as fingerprint } from '@pos/platform';
import { checkoutInput } from '../sales/sales.mapper';
import { CheckoutDto } from '../sales/sales.dto';
import { CreateCustomerDto } from '../customers/customers.dto';
import { OfflineCashMovementDto, SyncTransactionDto } from './sync.dto';

const pipe = new AppValidationPipe();

/** The same validation as a request body (trimming, whitelist, messages), on a value inside the upload. */
async function validated<T extends object>(metatype: new () => T, value: object): Promise<{ dto: T; errors: null } | { dto: null; errors: FieldErrors }> {
  try {
    return { dto: (await pipe.transform(value, { type: 'body', metatype, data: '' })) as T, errors: null };
  } catch (error) {
    if (error instanceof ValidationFailedError) return { dto: null, errors: error.fields };
    throw error;
  }
}

const inData = (errors: FieldErrors, keep: string[] = []): FieldErrors =>
  Object.fromEntries(Object.entries(errors).map(([f, m]) => [keep.includes(f.split('.')[0]) ? f : `data.${f}`, m]));

/** Runs a conversion that may raise field errors (amounts with too many decimals) and keys them within `data`. */
function converted<T>(convert: () => T, keep: string[] = []): { value: T; errors: null } | { value: null; errors: FieldErrors } {
  try {
    return { value: convert(), errors: null };
  } catch (error) {
    if (error instanceof ValidationFailedError) return { value: null, errors: inData(error.fields, keep) };
    throw error;
  }
}

/** `data` sent as an array holding one object is that object (the same transaction, the same fingerprint). */
function oneObjectData(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const data = (raw as { data?: unknown }).data;
  const only = Array.isArray(data) && data.length === 1 ? (data[0] as unknown) : undefined;
  return only && typeof only === 'object' && !Array.isArray(only) ? { ...raw, data: only } : raw;
}

/**
 * One element of `transactions` to what the upload use case takes: its key, type and time, the
 * fingerprint of its content (canonical JSON with the store), and the use case's command, or the
 * problems found, keyed within the transaction. Never throws for bad content: a bad transaction
 * is rejected alone.
 */
export async function parseTransaction(raw: unknown, storeId: number, decimals: number): Promise<UploadTransaction> {
  const print = fingerprint({ store_id: storeId, transaction: oneObjectData(raw) });
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      key: null,
      type: null,
      fingerprint: print,
      offlineCreatedAt: null,
      command: null,
      problems: { transaction: ['Each transaction must be an object.'] },
    };
  }
  const r = raw as Record<string, unknown>;
  const key = typeof r.idempotency_key === 'string' && r.idempotency_key.trim() && r.idempotency_key.trim().length <= 128 ? r.idempotency_key.trim() : null;
  const type = typeof r.type === 'string' ? r.type.trim().slice(0, 32) : null;
  const base = { key, type, fingerprint: print };
  const envelope = await validated(SyncTransactionDto, r);
  if (!envelope.dto) return { ...base, offlineCreatedAt: null, command: null, problems: envelope.errors };
  const t = envelope.dto;
  const offlineCreatedAt = t.offline_created_at ? new Date(t.offline_created_at) : null;
  const result = await command(t, storeId, decimals);
  return { ...base, offlineCreatedAt, command: result.command, problems: result.problems };
}

async function command(t: SyncTransactionDto, storeId: number, decimals: number): Promise<{ command: UploadCommand | null; problems: FieldErrors | null }> {
  const data = t.data;
  if (t.type === 'sale') {
    const clash: FieldErrors = {};
    if (data.store_id !== undefined && String(data.store_id) !== String(storeId))
      clash['data.store_id'] = ["The sale's store_id must be the upload's (or be left out)."];
    if (data.idempotency_key !== undefined && data.idempotency_key !== t.idempotency_key)
      clash['data.idempotency_key'] = ["The sale's idempotency_key must be the transaction's (or be left out)."];
    if (data.offline_created_at !== undefined && data.offline_created_at !== t.offline_created_at)
      clash['data.offline_created_at'] = ["The sale's offline_created_at must be the transaction's (or be left out)."];
    const { customer_ref: customerRef, ...rest } = data;
    if (customerRef !== undefined && (typeof customerRef !== 'string' || !customerRef.trim() || customerRef.length > 128))
      clash['data.customer_ref'] = ['The customer_ref must be the idempotency_key of a customer transaction.'];
    if (customerRef !== undefined && rest.customer_id !== undefined) clash['data.customer_ref'] = ['Give customer_id or customer_ref, not both.'];
    if (Object.keys(clash).length) return { command: null, problems: clash };
    const body = { ...rest, store_id: storeId, idempotency_key: t.idempotency_key, offline_created_at: t.offline_created_at };
    const v = await validated(CheckoutDto, body);
    if (!v.dto) return { command: null, problems: inData(v.errors, ['idempotency_key', 'offline_created_at', 'store_id']) };
    const dto = v.dto;
    const input = converted(() => checkoutInput(dto, decimals));
    if (!input.value) return { command: null, problems: input.errors };
    const { storeId: _s, idempotencyKey: _k, offlineCreatedAt: _o, ...sale } = input.value;
    return { command: { type: 'sale', input: sale, customerRef: typeof customerRef === 'string' ? customerRef.trim() : undefined }, problems: null };
  }
  if (t.type === 'customer') {
    const v = await validated(CreateCustomerDto, data);
    if (!v.dto) return { command: null, problems: inData(v.errors) };
    const b = v.dto;
    return {
      command: {
        type: 'customer',
        input: {
          name: b.name,
          email: b.email,
          phone: b.phone,
          address: b.address,
          customerGroupId: b.customer_group_id,
          storeId: b.store_id,
          status: b.status,
          paymentTermsDays: b.payment_terms_days,
          notes: b.notes,
        },
      },
      problems: null,
    };
  }
  const v = await validated(OfflineCashMovementDto, data);
  if (!v.dto) return { command: null, problems: inData(v.errors) };
  const b = v.dto;
  const amount = converted(() => amountToMinor(b.amount, decimals, 'amount'));
  if (amount.value === null) return { command: null, problems: amount.errors };
  return {
    command: {
      type: 'cash_movement',
      input: { sessionId: b.session_id, type: b.type, amount: amount.value, reason: b.reason, notes: b.notes, reference: b.reference },
    },
    problems: null,
  };
}
