/**
 * When a job is due: its schedule cut into slots. A slot is a scheduled time (an epoch multiple of the interval, or a
 * cron occurrence in UTC); each slot runs once, which is how several instances agree (jobs/queue.ts).
 */
import { CronExpressionParser } from 'cron-parser';
import type { Every } from './job';

export interface Slot {
  /** The slot now running: the latest scheduled time at or before `now`. */
  start: Date;
  /** The next scheduled time. */
  next: Date;
}

export function slotAt(every: Every, now: Date): Slot {
  if (typeof every === 'number') {
    const start = Math.floor(now.getTime() / every) * every;
    return { start: new Date(start), next: new Date(start + every) };
  }
  // One second past now, so an occurrence exactly at `now` is the current slot, not the previous one.
  const cron = CronExpressionParser.parse(every, { currentDate: new Date(now.getTime() + 1000), tz: 'UTC' });
  const start = cron.prev().toDate();
  const next = CronExpressionParser.parse(every, { currentDate: now, tz: 'UTC' }).next().toDate();
  return { start, next };
}

/** Why a schedule cannot be used, or null (a positive whole number of milliseconds, or a valid cron expression). */
export function scheduleProblem(every: Every): string | null {
  if (typeof every === 'number')
    return Number.isInteger(every) && every >= 1000
      ? null
      : 'an interval is a whole number of milliseconds, at least 1000';
  try {
    CronExpressionParser.parse(every, { tz: 'UTC' });
    return null;
  } catch (err) {
    return `not a cron expression (${err instanceof Error ? err.message : String(err)})`;
  }
}

/** The delay before retry `attempt` (the 2nd attempt waits `base`, the 3rd twice that…). */
export const backoffMs = (attempt: number, base: number) => base * 2 ** Math.max(0, attempt - 2);
