/**
 * A tax-exempt sale must say why: a customer (whose exemption is on file) or a reason
 * (decisions.md). The one place the rule lives: checkout and the cart endpoints both ask it.
 */
export function exemptionProblem(input: { taxExempt: boolean; hasCustomer: boolean; reason?: string | null }): { field: string; message: string } | null {
  if (!input.taxExempt || input.hasCustomer || (input.reason ?? '').trim() !== '') return null;
  return { field: 'tax_exempt_reason', message: 'A tax-exempt sale needs a customer_id or a tax_exempt_reason.' };
}
