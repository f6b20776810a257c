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
/**
 * Invisible formatting: Unicode format characters (category Cf: zero-width space and joiners,
 * direction marks, word joiner, BOM, soft hyphen, tags, ...) and the other default-ignorable code
 * points (variation selectors, Hangul fillers, ...). None has a place in an identifier: each
 * makes a second value that looks exactly like the first (`SKU\u200B1` beside `SKU1`).
 */
const FORMAT = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
/**
 * The invisible characters that mean nothing in a name or a note (soft hyphen, zero-width space,
 * word joiner and invisible operators, BOM, Mongolian vowel separator): removed from free text
 * by the composed string decorators. Joiners (U+200C/D: Persian, Indic scripts, emoji), direction
 * marks and variation selectors change how text renders, so free text keeps them.
 */
const INVISIBLE_IN_TEXT = /[\u00ad\u180e\u200b\u2060-\u2064\ufeff]/gu;

/**
 * Which fields are identifiers, by the name every DTO already gives them: `sku`, `barcode(s)`,
 * `code` and `*_code`, `email` and `*_email`, `*_key` (idempotency keys), `serial_number(s)`, the
 * legacy `payment_method` (a method code) and `cart_reference` (a checkout's idempotency key). Identifiers refuse every format character (422);
 * other text has the meaningless ones stripped. A field whose name does not tell says so itself
 * (`identifier` in the composed string decorators).
 */
const IDENTIFIER_FIELD = /(^|_)(sku|barcode|code|email|key|serial_number|payment_method)s?$|^cart_reference$/;

export function isIdentifierField(property: string): boolean {
  return IDENTIFIER_FIELD.test(property);
}

/** Free text without the invisible characters that carry no meaning (see INVISIBLE_IN_TEXT). */
export function stripInvisible(value: string): string {
  return value.replace(INVISIBLE_IN_TEXT, '');
}

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why a string is unsafe to store, or null. `identifier`: no invisible formatting character at all. */
export function unsafeTextReason(value: string, multiline = false, identifier = false): string | null {
  if (LONE_SURROGATE.test(value)) return 'must not contain unpaired UTF-16 surrogates';
  if ((multiline ? CONTROL_EXCEPT_LINES : CONTROL).test(value)) return 'must not contain control characters';
  if (BIDI_CONTROLS.test(value)) return 'must not contain bidirectional override characters';
  const invisible = (identifier ? FORMAT : new RegExp(INVISIBLE_IN_TEXT.source, 'u')).exec(value);
  // Free text reaching here unstripped came through a decorator that does not strip: refused, not stored.
  if (invisible) return `must not contain invisible formatting characters (${codePoint(invisible[0])})`;
  return null;
}

/**
 * Text safe to store. Whether the field is an identifier is read from its name (isIdentifierField)
 * unless `identifier` says it; arrays (`each`) are judged element by element.
 */
export const IsSafeText = (multiline = false, options?: ValidationOptions, identifier?: boolean) => {
  const reason = (value: unknown, property: string) =>
    typeof value === 'string' ? unsafeTextReason(value, multiline, identifier ?? isIdentifierField(property)) : null;
  return ValidateBy(
    {
      name: 'isSafeText',
      validator: {
        validate: (value: unknown, args) => reason(value, args?.property ?? '') === null,
        defaultMessage: (args) => {
          const property = args?.property ?? '';
          const bad = Array.isArray(args?.value) ? (args.value as unknown[]).find((v) => reason(v, property) !== null) : args?.value;
          return `$property ${reason(bad, property) ?? 'contains characters that are not allowed'}`;
        },
      },
    },
    options,
  );
};

/** An email address; a malformed UTF-16 string is simply not one (validator.js would throw on it). */
export const IsSafeEmail = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isEmail',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string' || unsafeTextReason(value, false, true) !== null) return false;
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
