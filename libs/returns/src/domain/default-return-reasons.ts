/**
 * The reasons a customer may give that every installation starts with (production included: the
 * returns migration wrote them; the demo seed ensures them too, so the demo set stands on its own).
 */
export const DEFAULT_RETURN_REASONS = [
  { code: 'damaged', name: 'Damaged' },
  { code: 'defective', name: 'Defective' },
  { code: 'wrong_item', name: 'Wrong item' },
  { code: 'changed_mind', name: 'Changed mind' },
  { code: 'other', name: 'Other' },
] as const;
