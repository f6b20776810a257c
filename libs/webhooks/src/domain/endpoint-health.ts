/**
 * An endpoint failing continuously (every attempt since `failingSince` failed) for the configured
 * time (WEBHOOK_DISABLE_AFTER_HOURS, default 72) is disabled: it stops receiving events and its
 * record says why. Any success clears the failing streak. Re-activating it (active: true) clears
 * the disabled state and the streak.
 */
export interface EndpointHealth {
  active: boolean;
  failingSince: Date | null;
  disabledAt: Date | null;
}

export type HealthChange = { failingSince?: Date | null; active?: false; disabledAt?: Date; disabledReason?: string };

/** Null when nothing changes (the common case: no write to the endpoint row). */
export function healthAfterSuccess(h: EndpointHealth): HealthChange | null {
  return h.failingSince === null ? null : { failingSince: null };
}

export function healthAfterFailure(h: EndpointHealth, now: Date, disableAfterHours: number): HealthChange | null {
  const since = h.failingSince ?? now;
  const change: HealthChange = h.failingSince === null ? { failingSince: now } : {};
  if (h.disabledAt === null && now.getTime() - since.getTime() >= disableAfterHours * 3_600_000) {
    Object.assign(change, {
      active: false,
      disabledAt: now,
      disabledReason: `Disabled automatically: every delivery failed for ${disableAfterHours} hours (since ${since.toISOString()}).`,
    });
  }
  return Object.keys(change).length ? change : null;
}

/** Whether an endpoint takes deliveries now. */
export function receivesDeliveries(h: EndpointHealth): boolean {
  return h.active && h.disabledAt === null;
}
