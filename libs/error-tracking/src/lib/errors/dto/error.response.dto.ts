import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import type { ErrorRecord, EventSummary, Frequency } from '../error.types';
import { releaseShortVersion } from '../release-short-version';
import type { StackTraceEntry } from '../stack-trace';

const FREQUENCY_SCHEMA = {
  type: 'array',
  description:
    '24 pairs `[unix_seconds, count]`: the current hour and the 23 before it, oldest first.',
  items: {
    type: 'array',
    items: { type: 'integer' },
    minItems: 2,
    maxItems: 2,
  },
  example: [
    [1795316400, 0],
    [1795320000, 3],
  ],
} as const;

export class ErrorResponseDto {
  @ApiProperty({ example: '17' }) id!: string;
  @ApiProperty({ example: 'TypeError: x is undefined' }) title!: string;
  @ApiProperty({ example: 'TypeError' }) type!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ example: 'innermost (client)' }) culprit!: string;
  @ApiProperty({ enum: ['unresolved', 'resolved', 'ignored'] }) status!: string;
  @ApiProperty() count!: number;
  @ApiProperty() user_count!: number;
  @ApiProperty({ format: 'date-time' }) first_seen!: string;
  @ApiProperty({ format: 'date-time' }) last_seen!: string;
  @ApiProperty(FREQUENCY_SCHEMA) frequency!: Frequency;
  @ApiProperty({ example: 'error' }) level!: string;
  @ApiProperty({ nullable: true, type: String, example: 'node' }) platform!:
    string | null;
  @ApiProperty() project_id!: number;
}

export class ErrorTagsDto {
  @ApiProperty() level!: string;
  @ApiProperty({ nullable: true, type: String }) logger!: string | null;
}

export class DetailedErrorResponseDto extends ErrorResponseDto {
  @ApiProperty({ nullable: true, type: String }) first_release_version!:
    string | null;
  @ApiProperty({ nullable: true, type: String }) last_release_version!:
    string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'First 10 characters.',
  })
  first_release_short_version!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'First 10 characters.',
  })
  last_release_short_version!: string | null;
  @ApiProperty({ type: ErrorTagsDto }) tags!: ErrorTagsDto;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'URL of the linked issue.',
  })
  gitlab_issue!: string | null;
  @ApiProperty({ description: "The error's web page." }) external_url!: string;
}

export class UpdatedErrorResponseDto extends DetailedErrorResponseDto {
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'iid of the issue this update closed.',
  })
  closed_issue_iid!: number | null;
}

export class BulkUpdatedErrorsResponseDto {
  @ApiProperty({ description: 'How many errors were changed.' })
  updated!: number;
  @ApiProperty({ type: [String], description: 'The errors changed.' })
  error_ids!: string[];
  @ApiProperty({
    type: [Number],
    description: 'iids of the issues this update closed.',
  })
  closed_issue_iids!: number[];
}

export class MinifiedPositionDto {
  @ApiProperty({ nullable: true, type: String }) filename!: string | null;
  @ApiProperty({ nullable: true, type: String }) function!: string | null;
  @ApiProperty({ nullable: true, type: Number }) lineNo!: number | null;
  @ApiProperty({ nullable: true, type: Number }) colNo!: number | null;
}

export class StackTraceEntryDto {
  @ApiProperty({ nullable: true, type: String }) filename!: string | null;
  @ApiProperty({ nullable: true, type: String }) abs_path!: string | null;
  @ApiProperty({ nullable: true, type: String }) function!: string | null;
  @ApiProperty({ nullable: true, type: Number }) lineNo!: number | null;
  @ApiProperty() colNo!: number;
  @ApiProperty({
    type: 'array',
    items: {
      type: 'array',
      items: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
    },
    description: '`[line_number, source_line]` pairs.',
  })
  context!: Array<[number, string]>;
  @ApiPropertyOptional() in_app!: boolean;
  @ApiPropertyOptional({ nullable: true, type: String }) module!: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: MinifiedPositionDto,
    description:
      'Set when source maps resolved the frame: where it was in the minified file.',
  })
  source_map!: MinifiedPositionDto | null;
}

export class StackTraceBodyDto {
  @ApiProperty() issue_id!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  date_received!: string | null;
  @ApiProperty({
    type: StackTraceEntryDto,
    isArray: true,
    description: 'Crash frame last.',
  })
  stack_trace_entries!: StackTraceEntry[];
}

export class StackTraceResponseDto {
  @ApiProperty({ type: StackTraceBodyDto }) error!: StackTraceBodyDto;
}

export class EventSummaryResponseDto {
  @ApiProperty({ example: 'fc6d8c0c43fc4630ad850ee518f1b9d0' })
  event_id!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty({ format: 'date-time' }) received_at!: string;
  @ApiProperty() level!: string;
  @ApiProperty() title!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ nullable: true, type: String }) release!: string | null;
  @ApiProperty() environment!: string;
  @ApiProperty({ nullable: true, type: String }) platform!: string | null;
  @ApiProperty({ nullable: true, type: Object }) user!: unknown;
  @ApiProperty({ type: Object }) tags!: unknown;
  @ApiProperty({ nullable: true, type: Object }) sdk!: unknown;
}

export function toErrorResponse(
  error: ErrorRecord,
  frequency: Frequency,
): ErrorResponseDto {
  return {
    id: error.id,
    title: error.title,
    type: error.type,
    message: error.message,
    culprit: error.culprit,
    status: error.status,
    count: error.count,
    user_count: error.userCount,
    first_seen: error.firstSeen.toISOString(),
    last_seen: error.lastSeen.toISOString(),
    frequency,
    level: error.level,
    platform: error.platform,
    project_id: error.projectId,
  };
}

export function toDetailedErrorResponse(
  error: ErrorRecord,
  frequency: Frequency,
  urls: { errorUrl: string; issueUrl: string | null },
): DetailedErrorResponseDto {
  return {
    ...toErrorResponse(error, frequency),
    first_release_version: error.firstRelease,
    last_release_version: error.lastRelease,
    first_release_short_version: releaseShortVersion(error.firstRelease),
    last_release_short_version: releaseShortVersion(error.lastRelease),
    tags: { level: error.level, logger: error.logger },
    gitlab_issue: urls.issueUrl,
    external_url: urls.errorUrl,
  };
}

export function toEventSummaryResponse(
  event: EventSummary,
): EventSummaryResponseDto {
  return {
    event_id: event.eventId,
    timestamp: event.timestamp.toISOString(),
    received_at: event.receivedAt.toISOString(),
    level: event.level,
    title: event.title,
    message: event.message,
    release: event.release,
    environment: event.environment,
    platform: event.platform,
    user: event.user,
    tags: event.tags,
    sdk: event.sdk,
  };
}
