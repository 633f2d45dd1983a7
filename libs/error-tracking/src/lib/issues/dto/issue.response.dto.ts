import { ApiProperty } from '@nestjs/swagger';

import type { IssueRecord } from '../issue.types';

export class IssueResponseDto {
  @ApiProperty() id!: number;
  @ApiProperty({ description: 'Number within the project, from 1.' })
  iid!: number;
  @ApiProperty() project_id!: number;
  @ApiProperty() title!: string;
  @ApiProperty({ description: 'Markdown.' }) description!: string;
  @ApiProperty({ enum: ['opened', 'closed'] }) state!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  closed_at!: string | null;
  @ApiProperty() web_url!: string;
  @ApiProperty({ type: String, isArray: true }) labels!: string[];
}

export function issueWebUrl(
  baseUrl: string,
  projectId: number,
  iid: number,
): string {
  return `${baseUrl}/projects/${projectId}/issues/${iid}`;
}

export function toIssueResponse(
  issue: IssueRecord,
  baseUrl: string,
): IssueResponseDto {
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.projectId,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: issue.createdAt.toISOString(),
    updated_at: issue.updatedAt.toISOString(),
    closed_at: issue.closedAt?.toISOString() ?? null,
    web_url: issueWebUrl(baseUrl, issue.projectId, issue.iid),
    labels: issue.labels,
  };
}
