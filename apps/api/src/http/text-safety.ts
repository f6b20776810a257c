import { isEmail, ValidateBy, ValidationOptions } from 'class-validator';

// ---------------------------------------------------------------------------------------------
// Text safety
// ---------------------------------------------------------------------------------------------

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- as above, tab and line breaks allowed
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string is unsafe to store, or null. */
export function unsafeTextReason(value: string, multiline = false): string | null {
  if (LONE_SURROGATE.test(value)) return 'must not contain unpaired UTF-16 surrogates';
  if ((multiline ? CONTROL_EXCEPT_LINES : CONTROL).test(value)) return 'must not contain control characters';
  if (BIDI_CONTROLS.test(value)) return 'must not contain bidirectional override characters';
  return null;
}

export const IsSafeText = (multiline = false, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isSafeText',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || unsafeTextReason(value, multiline) === null,
        defaultMessage: (args) =>
          `$property ${unsafeTextReason(Array.isArray(args?.value) ? (args.value.find((v) => typeof v === 'string' && unsafeTextReason(v, multiline)) as string) : String(args?.value), multiline) ?? 'contains characters that are not allowed'}`,
      },
    },
    options,
  );

/** An email address; a malformed UTF-16 string is simply not one (validator.js would throw on it). */
export const IsSafeEmail = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isEmail',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string' || unsafeTextReason(value) !== null) return false;
          try {
            return isEmail(value);
          } catch {
            return false;
          }
        },
        defaultMessage: () => '$property must be a valid email address',
      },
    },
    options,
  );
