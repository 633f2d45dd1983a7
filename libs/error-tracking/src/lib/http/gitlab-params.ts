import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiProperty, ApiQuery } from '@nestjs/swagger';
import type { ApiPropertyOptions, ApiQueryOptions } from '@nestjs/swagger';

import type { Params } from './params';

interface FieldBase {
  readonly required?: boolean;
  /** OpenAPI only: description, example, a wider `type`, ... */
  readonly doc?: ApiPropertyOptions;
}

/** Text (a number is taken as its digits); `max` characters (10,000). */
export interface StringField extends FieldBase {
  readonly type: 'string';
  readonly max?: number;
  readonly oneOf?: readonly string[];
}

export interface IntegerField extends FieldBase {
  readonly type: 'integer';
  readonly oneOf?: readonly number[];
}

/** `true`/`false`, or Grape's `1`, `yes`, `t`, ... */
export interface BooleanField extends FieldBase {
  readonly type: 'boolean';
}

/** An array, or a comma-separated string. */
export interface ListField extends FieldBase {
  readonly type: 'list';
}

export type BodyField = StringField | IntegerField | BooleanField | ListField;

type ValueOf<F extends BodyField> = F extends StringField
  ? F['oneOf'] extends readonly (infer T)[]
    ? T
    : string
  : F extends IntegerField
    ? number
    : F extends BooleanField
      ? boolean
      : string[];

/** What `read` returns: required fields are set once `check()` passed. */
export type BodyValues<S extends Record<string, BodyField>> = {
  -readonly [K in keyof S]: S[K] extends { required: true }
    ? ValueOf<S[K]>
    : ValueOf<S[K]> | undefined;
};

const DOC_TYPES = {
  string: String,
  integer: Number,
  boolean: Boolean,
  list: String,
} as const;

/**
 * GitLab request parameters described once: the same declaration checks
 * them, in declaration order and with Grape's messages, and documents them
 * in OpenAPI. Rules across fields stay with the handler, before
 * `params.check()`.
 */
abstract class GitLabParams<S extends Record<string, BodyField>> {
  constructor(protected readonly fields: S) {}

  /**
   * The fields, each checked (problems collect in `params`; call
   * `params.check()` after any rule of your own). `partial`: none required,
   * as an update reads them.
   */
  read(params: Params, options: { partial?: boolean } = {}): BodyValues<S> {
    const values: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(this.fields))
      values[name] = readField(
        params,
        name,
        field,
        (field.required ?? false) && !options.partial,
      );
    return values as BodyValues<S>;
  }

  protected docOf(field: BodyField): ApiPropertyOptions {
    const oneOf = 'oneOf' in field ? field.oneOf : undefined;
    return {
      required: field.required ?? false,
      ...(oneOf ? { enum: [...oneOf] } : {}),
      ...field.doc,
    } as ApiPropertyOptions;
  }
}

/** A body (JSON or form; GitLab reads the query string too): the OpenAPI model `name`. */
export class GitLabBody<
  S extends Record<string, BodyField>,
> extends GitLabParams<S> {
  /** The OpenAPI model (a class only so Swagger can name and `$ref` it). */
  readonly dto: new () => unknown;

  constructor(name: string, fields: S) {
    super(fields);
    const dto = { [name]: class {} }[name] as new () => unknown;
    for (const [key, field] of Object.entries(fields))
      ApiProperty({ type: DOC_TYPES[field.type], ...this.docOf(field) })(
        dto.prototype as object,
        key,
      );
    this.dto = dto;
  }

  /** `@X.ApiBody()`: the operation's request body is this model. */
  ApiBody(): MethodDecorator {
    return ApiBody({ type: this.dto });
  }
}

/** Query-string parameters of one operation: `@X.ApiQueries()` documents them. */
export class GitLabQuery<
  S extends Record<string, BodyField>,
> extends GitLabParams<S> {
  ApiQueries(): MethodDecorator {
    // Stacked decorators apply bottom first; these keep the listed order.
    return applyDecorators(
      ...Object.entries(this.fields)
        .reverse()
        .map(([name, field]) =>
          ApiQuery({
            name,
            // Swagger takes a query parameter for text unless told.
            ...(field.type === 'integer' ? { type: Number } : {}),
            ...this.docOf(field),
          } as ApiQueryOptions),
        ),
    );
  }
}

function readField(
  params: Params,
  name: string,
  field: BodyField,
  required: boolean,
): unknown {
  switch (field.type) {
    case 'string': {
      const text = required
        ? params.string(name, true, field.max)
        : params.string(name, false, field.max);
      return field.oneOf ? params.oneOf(name, text, field.oneOf) : text;
    }
    case 'integer': {
      const number = required
        ? params.integer(name, true)
        : params.integer(name, false);
      return field.oneOf ? params.oneOf(name, number, field.oneOf) : number;
    }
    case 'boolean':
      return required
        ? params.boolean(name, true)
        : params.boolean(name, false);
    case 'list':
      return params.list(name, required);
  }
}
