import { ApiOkResponse, ApiQuery } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';

const text = { type: 'string' };
const stats = {
  type: 'array',
  description: '24 hourly `[unix seconds, count]` pairs, oldest first.',
  items: { type: 'array', items: { type: 'integer' } },
};

/** Sentry's issue ("group") as this API serves it. */
export const SENTRY_GROUP_SCHEMA = {
  type: 'object',
  properties: {
    id: text,
    shortId: { ...text, description: '`SLUG-ID`, the id in base 32.' },
    title: text,
    culprit: text,
    permalink: text,
    logger: { ...text, nullable: true },
    level: text,
    status: { type: 'string', enum: ['unresolved', 'resolved', 'ignored'] },
    statusDetails: {
      type: 'object',
      properties: {
        ignoreUntil: {
          ...text,
          format: 'date-time',
          description: 'When an ignore for a duration ends.',
        },
      },
    },
    substatus: { ...text, nullable: true },
    platform: { ...text, nullable: true },
    project: {
      type: 'object',
      properties: { id: text, name: text, slug: text },
    },
    type: { type: 'string', enum: ['error', 'default'] },
    metadata: { type: 'object' },
    count: { ...text, description: 'Occurrences, as a string.' },
    userCount: { type: 'integer' },
    firstSeen: { type: 'string', format: 'date-time' },
    lastSeen: { type: 'string', format: 'date-time' },
    stats: {
      type: 'object',
      properties: { '24h': stats },
      description: 'Absent when `statsPeriod` is empty.',
    },
  },
};

const tags = {
  type: 'array',
  items: { type: 'object', properties: { key: text, value: text } },
  description:
    "The SDK's tags, plus `level`, `environment` and `release` from the event's fields.",
};

/** An event in an issue's event list (Sentry's `SimpleEventSerializer`). */
export const SENTRY_EVENT_SUMMARY_SCHEMA = {
  type: 'object',
  properties: {
    id: text,
    eventID: text,
    groupID: text,
    projectID: text,
    title: text,
    message: text,
    platform: { ...text, nullable: true },
    dateCreated: { type: 'string', format: 'date-time' },
    dateReceived: { type: 'string', format: 'date-time' },
    user: { type: 'object', nullable: true },
    tags,
  },
};

/** One whole event (Sentry's `EventSerializer`, from the stored payload). */
export const SENTRY_EVENT_SCHEMA = {
  type: 'object',
  properties: {
    ...SENTRY_EVENT_SUMMARY_SCHEMA.properties,
    type: { type: 'string', enum: ['error', 'default'] },
    culprit: { ...text, nullable: true },
    contexts: { type: 'object' },
    context: { type: 'object', description: "The event's `extra`." },
    sdk: { type: 'object', nullable: true },
    release: {
      type: 'object',
      nullable: true,
      properties: { version: text },
    },
    dist: { ...text, nullable: true },
    fingerprints: { type: 'array', items: text },
    entries: {
      type: 'array',
      description:
        '`exception`, `message`, `threads`, `breadcrumbs` and `request`, as the event has them.',
      items: {
        type: 'object',
        properties: { type: text, data: { type: 'object' } },
      },
    },
    errors: { type: 'array', items: { type: 'object' } },
  },
};

/** One tag value's count among the issue's latest events. */
export const SENTRY_TAG_VALUE_SCHEMA = {
  type: 'object',
  properties: {
    key: text,
    name: text,
    value: text,
    count: { type: 'integer' },
    firstSeen: { type: 'string', format: 'date-time' },
    lastSeen: { type: 'string', format: 'date-time' },
  },
};

/** A tag key of an issue with its top values (at most 9). */
export const SENTRY_TAG_KEY_SCHEMA = {
  type: 'object',
  properties: {
    key: text,
    name: text,
    totalValues: {
      type: 'integer',
      description: 'Events with the tag, among the latest 1000.',
    },
    uniqueValues: { type: 'integer' },
    topValues: { type: 'array', items: SENTRY_TAG_VALUE_SCHEMA },
  },
};

/** Sentry's page parameters: `limit` and the `Link` header's `cursor`. */
export function PageQueries(): MethodDecorator {
  return applyDecorators(
    ApiQuery({ name: 'limit', required: false, description: '1 to 100.' }),
    ApiQuery({
      name: 'cursor',
      required: false,
      description: 'From the `Link` header (empty: the first page).',
    }),
  );
}

/** The list's parameters, as Sentry names them. */
export function IssueListQueries(): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'query',
      required: false,
      description:
        'Sentry search, the same syntax and meaning as `query` of the GitLab errors list, `is:unresolved` by default (empty, or without an `is:` term: every status): free text, `key:value` and `!key:value` for any tag, `has:`, `is:`, `firstSeen:`, `lastSeen:`, `times_seen:`, quoted values; a key not stored here (`assigned:`, ...) is a 400.',
    }),
    ApiQuery({
      name: 'statsPeriod',
      required: false,
      description: "`24h` (the default) or `''` (no `stats`).",
    }),
    ApiQuery({
      name: 'sort',
      required: false,
      description: '`date` (last seen, the default), `new` or `freq`.',
    }),
    PageQueries(),
    ApiOkResponse({
      description:
        'A page of issues; `Link` has Sentry\'s `rel="previous"` and `rel="next"` with `results` and `cursor`.',
      schema: { type: 'array', items: SENTRY_GROUP_SCHEMA },
    }),
  );
}
