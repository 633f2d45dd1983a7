/** Time source injected wherever "now" matters, so tests can fix it. */
export interface Clock {
  now(): Date;
}

export const CLOCK = 'quitanda:clock';

export const systemClock: Clock = { now: () => new Date() };

/** A clock for tests: stands still until moved. */
export class FixedClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
}
