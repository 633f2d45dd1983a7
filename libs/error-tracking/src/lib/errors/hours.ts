const HOUR_MS = 3_600_000;

/** Start of the UTC hour of an instant (hourly counts are keyed by it). */
export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}
