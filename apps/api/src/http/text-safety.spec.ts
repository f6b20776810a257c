import { isIdentifierField, stripInvisible, unsafeTextReason } from './text-safety';

describe('text safety: invisible formatting characters (issue 25 item 9)', () => {
  it('tells identifiers by their field name', () => {
    for (const f of [
      'sku',
      'barcode',
      'barcodes',
      'code',
      'payment_method_code',
      'email',
      'approver_email',
      'idempotency_key',
      'serial_number',
      'serial_numbers',
      'payment_method',
      'cart_reference',
    ])
      expect([f, isIdentifierField(f)]).toEqual([f, true]);
    for (const f of ['name', 'description', 'notes', 'q', 'reference', 'phone', 'address', 'barcode_note', 'codes_list', 'skus_text'])
      expect([f, isIdentifierField(f)]).toEqual([f, false]);
  });

  it('refuses every format and default-ignorable character in an identifier, naming it', () => {
    const chars = [
      '\u00ad',
      '\u061c',
      '\u180e',
      '\u200b',
      '\u200c',
      '\u200d',
      '\u200e',
      '\u200f',
      '\u2060',
      '\u2064',
      '\ufeff',
      '\ufe0f',
      '\u3164',
      '\u{e0041}',
    ];
    for (const c of chars) expect(unsafeTextReason(`SKU${c}1`, false, true)).toMatch(/^must not contain invisible formatting characters \(U\+[0-9A-F]{4,5}\)$/);
    expect(unsafeTextReason('SKU\u200b1', false, true)).toBe('must not contain invisible formatting characters (U+200B)');
    expect(unsafeTextReason('SKU-1 Ä', false, true)).toBeNull();
  });

  it('strips the meaningless ones from free text and keeps joiners and marks', () => {
    expect(stripInvisible('Choco\u00adlate\u200b Bar\ufeff\u2060')).toBe('Chocolate Bar');
    expect(stripInvisible('می\u200cخواهم 👩\u200d💻 \u200f')).toBe('می\u200cخواهم 👩\u200d💻 \u200f');
    // text that was not stripped (a decorator that does not strip) is refused, never stored
    expect(unsafeTextReason('a\u00adb')).toBe('must not contain invisible formatting characters (U+00AD)');
    expect(unsafeTextReason('a\u200db')).toBeNull();
  });
});
