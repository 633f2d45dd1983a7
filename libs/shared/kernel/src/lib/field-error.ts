/** One failing field of a request body or query, as every context reports it. */
export interface FieldError {
  /** Dotted path of the field, e.g. `title` or `available.0.price`. */
  readonly field: string;
  readonly message: string;
}
