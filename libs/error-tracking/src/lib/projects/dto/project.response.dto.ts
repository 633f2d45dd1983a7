import { ApiProperty } from '@nestjs/swagger';

import type { MemberRecord, ProjectRecord } from '../project.types';

export class ProjectResponseDto {
  @ApiProperty({ example: 42 }) id!: number;
  @ApiProperty({ example: 'Storefront' }) name!: string;
  @ApiProperty({
    example: 'storefront',
    description: 'Unique slug; usable instead of the id.',
  })
  path!: string;
  @ApiProperty({ example: 'storefront' }) path_with_namespace!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ example: 'https://quitanda.example.com/projects/42' })
  web_url!: string;
}

export class MemberResponseDto {
  @ApiProperty() id!: number;
  @ApiProperty() username!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'active' }) state!: string;
  @ApiProperty({ enum: [10, 20, 30, 40, 50] }) access_level!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty() web_url!: string;
}

export function projectWebUrl(baseUrl: string, projectId: number): string {
  return `${baseUrl}/projects/${projectId}`;
}

export function toProjectResponse(
  project: ProjectRecord,
  baseUrl: string,
): ProjectResponseDto {
  return {
    id: project.id,
    name: project.name,
    path: project.path,
    path_with_namespace: project.path,
    description: project.description,
    created_at: project.createdAt.toISOString(),
    web_url: projectWebUrl(baseUrl, project.id),
  };
}

export function toMemberResponse(
  member: MemberRecord,
  baseUrl: string,
): MemberResponseDto {
  return {
    id: member.user.id,
    username: member.user.username,
    name: member.user.name,
    state: member.user.state,
    access_level: member.accessLevel,
    created_at: member.createdAt.toISOString(),
    web_url: `${baseUrl}/${encodeURIComponent(member.user.username)}`,
  };
}
