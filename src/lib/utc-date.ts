/**
 * @module lib/utc-date
 * Calendar dates (`YYYY-MM-DD`) in UTC, so a review date means the same day in every isolate
 * whatever its time zone. ISO dates compare correctly as strings.
 *
 * @example
 * utcDate(Date.parse('2026-11-30T23:59:00Z')) // '2026-11-30'
 * addDays('2026-11-30', 90)                    // '2027-02-28'
 * addYears('2028-02-29', 1)                    // '2029-03-01'
 */

export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return utcDate(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000);
}

export function addYears(date: string, years: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  return utcDate(Date.UTC(day.getUTCFullYear() + years, day.getUTCMonth(), day.getUTCDate()));
}
