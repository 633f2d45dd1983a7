import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@quitanda/kernel';
import type { Clock } from '@quitanda/kernel';

import { ErrorTrackingError } from '../common/error-tracking.errors';
import { ClientKeyCache } from './client-key-cache';
import { ErrorTrackingDatabase } from '../persistence/error-tracking.database';
import type { ProjectAccess, ProjectRecord } from '../projects/project.types';
import { ClientKeysRepository } from './client-keys.repository';
import type { ClientKeyRecord } from './client-keys.repository';
import { SettingsRepository } from './settings.repository';

/** Error-tracking settings and client keys of a project (maintainer). */
@Injectable()
export class SettingsService {
  constructor(
    private readonly db: ErrorTrackingDatabase,
    private readonly setting: SettingsRepository,
    private readonly keys: ClientKeysRepository,
    private readonly cache: ClientKeyCache,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Changes the setting; enabling the integrated backend with no active key
   * creates the first key, so a DSN exists at once.
   */
  async update(
    access: ProjectAccess,
    { active, integrated }: { active: boolean; integrated: boolean },
  ): Promise<ProjectRecord> {
    const updated = await this.db.transaction(async (tx) => {
      const project = await this.setting.updateSetting(
        access.project.id,
        { active, integrated },
        tx,
      );
      if (
        active &&
        integrated &&
        !(await this.keys.firstActive(project.id, tx))
      )
        await this.keys.create(project.id, this.clock.now(), tx);
      return project;
    });
    this.cache.evictProject(access.project.id);
    return updated;
  }

  listKeys(access: ProjectAccess, limit: number, offset: number) {
    return this.keys.list(access.project.id, limit, offset);
  }

  firstActiveKey(access: ProjectAccess): Promise<ClientKeyRecord | undefined> {
    return this.keys.firstActive(access.project.id);
  }

  async createKey(access: ProjectAccess): Promise<ClientKeyRecord> {
    const key = await this.keys.create(access.project.id, this.clock.now());
    this.cache.evictKey(key.publicKey);
    return key;
  }

  /** Deletes a key; it stops ingesting at once (see ClientKeyCache). */
  async deleteKey(
    access: ProjectAccess,
    keyId: number,
  ): Promise<ClientKeyRecord> {
    const key = await this.keys.delete(access.project.id, keyId);
    if (!key) throw ErrorTrackingError.notFound();
    this.cache.evictProject(access.project.id);
    return key;
  }
}
