export interface IssueRecord {
  readonly id: number;
  readonly iid: number;
  readonly projectId: number;
  readonly title: string;
  readonly description: string;
  readonly state: 'opened' | 'closed';
  readonly labels: string[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly closedAt: Date | null;
}

export interface IssueChanges {
  readonly title?: string;
  readonly description?: string;
  readonly labels?: string[];
  readonly stateEvent?: 'close' | 'reopen';
}
