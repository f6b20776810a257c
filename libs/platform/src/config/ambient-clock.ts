import { Clock } from '@pos/kernel';
import { AsyncFacet } from '../context/async-facet';

/** A moment that stands in for "now" within one async flow; the caller moves it along. */
export interface HeldMoment {
  at: Date;
}

const held = new AsyncFacet<HeldMoment>('held moment');

/**
 * "Now" for the whole process: the system time, except inside `atMoment(moment, work)`, where it is
 * `moment.at` for `work` and everything it awaits (and only there: requests and periodic tasks
 * running meanwhile keep the system time). The one user is the demo data's trading history, which
 * runs the real use cases (sessions, checkout, returns, stock) at past moments so that what they
 * record is dated then; the use cases read time from the Clock port, the change and audit logs
 * from `ambientNow()`.
 */
export function atMoment<T>(moment: HeldMoment, work: () => Promise<T>): Promise<T> {
  return held.run(moment, work);
}

export function ambientNow(): Date {
  const moment = held.get();
  return moment ? new Date(moment.at.getTime()) : new Date();
}

/** The Clock the application binds (ConfigModule): the system time, or the held moment within `atMoment`. */
export class AmbientClock extends Clock {
  now(): Date {
    return ambientNow();
  }
}
