import { Injectable } from '@nestjs/common';

import { AccessLevel } from '../common/error-tracking.constants';
import type {
  ErrorRecord,
  Frequency,
  StoredEvent,
} from '../errors/error.types';
import { ErrorsRepository } from '../errors/errors.repository';
import { ErrorsService } from '../errors/errors.service';
import { toErrorResponse } from '../errors/dto/error.response.dto';
import type { ErrorResponseDto } from '../errors/dto/error.response.dto';
import type { ProjectRecord } from '../projects/project.types';
import { ProjectsRepository } from '../projects/projects.repository';
import { AlertLinks } from './alert-links';

/** Everything an alert says, whichever channel carries it. */
export interface AlertContent {
  readonly action: string;
  readonly project: ProjectRecord;
  readonly error: ErrorRecord;
  readonly frequency: Frequency;
  readonly event: StoredEvent | undefined;
  readonly eventId: string;
  readonly url: string;
  readonly projectUrl: string;
}

/** The body GitLab-style receivers get (`X-Gitlab-Event: Error Tracking Hook`). */
export interface WebhookBody {
  readonly object_kind: 'error_tracking';
  readonly action: string;
  readonly project: {
    id: number;
    name: string;
    path: string;
    web_url: string;
  };
  readonly error: ErrorResponseDto;
  readonly event: {
    event_id: string;
    timestamp: string | null;
    title: string;
    release: string | null;
    environment: string | null;
    user: unknown;
  };
  readonly url: string;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function webhookBody(content: AlertContent): WebhookBody {
  const payload = content.event?.payload ?? {};
  return {
    object_kind: 'error_tracking',
    action: content.action,
    project: {
      id: content.project.id,
      name: content.project.name,
      path: content.project.path,
      web_url: content.projectUrl,
    },
    error: toErrorResponse(content.error, content.frequency),
    event: {
      event_id: content.eventId,
      timestamp: text(payload['timestamp']) ?? null,
      title: text(payload['title']) ?? content.error.title,
      release: text(payload['release']),
      environment: text(payload['environment']),
      user: payload['user'] ?? null,
    },
    url: content.url,
  };
}

/** Reads what an alert needs at delivery time (the error as it is now). */
@Injectable()
export class AlertComposer {
  constructor(
    private readonly projects: ProjectsRepository,
    private readonly errors: ErrorsService,
    private readonly errorEvents: ErrorsRepository,
    private readonly links: AlertLinks,
  ) {}

  /** Undefined when the project or error is gone (retention, deletion). */
  async compose(
    projectId: number,
    errorId: string,
    eventId: string | null,
    action: string,
  ): Promise<AlertContent | undefined> {
    const found = await this.projects.findWithAccess({ id: projectId }, 0);
    if (!found) return undefined;
    const access = { project: found.project, accessLevel: AccessLevel.Owner };
    const current = await this.errors
      .get(access, errorId)
      .catch(() => undefined);
    if (!current) return undefined;
    const id = eventId ?? current.error.lastEventId;
    const event = await this.errorEvents.findEvent(projectId, errorId, id);
    return {
      action,
      project: found.project,
      error: current.error,
      frequency: current.frequency,
      event,
      eventId: id,
      url: this.links.errorUrl(projectId, errorId),
      projectUrl: this.links.projectUrl(projectId),
    };
  }

  /** A made-up error for a hook's test delivery. */
  sample(project: ProjectRecord, now: Date): AlertContent {
    const hour = Math.floor(now.getTime() / 3_600_000) * 3_600;
    const eventId = '0'.repeat(32);
    return {
      action: 'new',
      project,
      error: {
        id: '0',
        projectId: project.id,
        title: 'Error: This is a test alert from Quitanda',
        type: 'Error',
        message: 'This is a test alert from Quitanda',
        culprit: 'sendTestAlert (webhooks)',
        status: 'unresolved',
        count: 1,
        userCount: 0,
        firstSeen: now,
        lastSeen: now,
        level: 'error',
        logger: null,
        platform: 'javascript',
        firstRelease: null,
        lastRelease: null,
        lastEventId: eventId,
        issueIid: null,
        groupingVersion: 1,
      },
      frequency: Array.from({ length: 24 }, (_, i): [number, number] => [
        hour - (23 - i) * 3_600,
        i === 23 ? 1 : 0,
      ]),
      event: {
        payload: {
          timestamp: now.toISOString(),
          title: 'Error: This is a test alert from Quitanda',
          environment: 'production',
        },
        receivedAt: now,
        timestamp: now,
      },
      eventId,
      url: this.links.projectUrl(project.id) + '/error_tracking',
      projectUrl: this.links.projectUrl(project.id),
    };
  }
}
