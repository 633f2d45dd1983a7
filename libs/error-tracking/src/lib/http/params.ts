import { ErrorTrackingError } from '../common/error-tracking.errors';

const TRUE = new Set(['true', '1', 'yes', 't']);
const FALSE = new Set(['false', '0', 'no', 'f']);

/**
 * GitLab's (Grape's) request parameters: the query string and the body
 * (JSON or form) merged, each parameter checked by name, and every problem
 * reported in one `{"error": "name is missing, active is invalid"}`.
 */
export class Params {
  private readonly problems: string[] = [];

  constructor(readonly source: Readonly<Record<string, unknown>>) {}

  static of(query: unknown, body: unknown): Params {
    const merged: Record<string, unknown> = {};
    if (query && typeof query === 'object') Object.assign(merged, query);
    if (body && typeof body === 'object' && !Array.isArray(body))
      Object.assign(merged, body);
    return new Params(merged);
  }

  has(name: string): boolean {
    return this.source[name] !== undefined && this.source[name] !== null;
  }

  private problem(message: string): undefined {
    this.problems.push(message);
    return undefined;
  }

  string(name: string, required: true, max?: number): string;
  string(name: string, required?: false, max?: number): string | undefined;
  string(name: string, required = false, max = 10_000): string | undefined {
    const value = this.source[name];
    if (value === undefined || value === null)
      return required
        ? (this.problem(`${name} is missing`) as never)
        : undefined;
    if (typeof value !== 'string' && typeof value !== 'number')
      return this.problem(`${name} is invalid`);
    const text = String(value);
    if (required && text.trim() === '') return this.problem(`${name} is empty`);
    if (text.length > max)
      return this.problem(`${name} is too long (maximum is ${max} characters)`);
    return text;
  }

  boolean(name: string, required: true): boolean;
  boolean(name: string, required?: false): boolean | undefined;
  boolean(name: string, required = false): boolean | undefined {
    const value = this.source[name];
    if (value === undefined || value === null)
      return required
        ? (this.problem(`${name} is missing`) as never)
        : undefined;
    if (typeof value === 'boolean') return value;
    const text = String(value).trim().toLowerCase();
    if (TRUE.has(text)) return true;
    if (FALSE.has(text)) return false;
    return this.problem(`${name} is invalid`);
  }

  integer(name: string, required: true): number;
  integer(name: string, required?: false): number | undefined;
  integer(name: string, required = false): number | undefined {
    const value = this.source[name];
    if (value === undefined || value === null || value === '')
      return required
        ? (this.problem(`${name} is missing`) as never)
        : undefined;
    const number =
      typeof value === 'number' ? value : Number(String(value).trim());
    if (!Number.isSafeInteger(number))
      return this.problem(`${name} is invalid`);
    return number;
  }

  /** An array, or a comma-separated string (`scopes=api,read_api`). */
  list(name: string, required = false): string[] | undefined {
    const value = this.source[name];
    if (value === undefined || value === null)
      return required
        ? (this.problem(`${name} is missing`) as never)
        : undefined;
    const items = Array.isArray(value)
      ? value.map(String)
      : typeof value === 'string'
        ? value.split(',')
        : undefined;
    if (!items) return this.problem(`${name} is invalid`);
    const cleaned = items.map((i) => i.trim()).filter(Boolean);
    if (required && cleaned.length === 0)
      return this.problem(`${name} is empty`);
    return cleaned;
  }

  /** One of `allowed`, Grape's "does not have a valid value" otherwise. */
  oneOf<T extends string | number>(
    name: string,
    value: T | undefined,
    allowed: readonly T[],
  ): T | undefined {
    if (value === undefined) return undefined;
    if (!allowed.includes(value))
      return this.problem(`${name} does not have a valid value`);
    return value;
  }

  /** Adds a problem found by the caller (same message format). */
  invalid(message: string): void {
    this.problems.push(message);
  }

  /** Throws the collected problems, if any. */
  check(): void {
    if (this.problems.length > 0)
      throw ErrorTrackingError.invalidParameter(this.problems.join(', '));
  }
}
