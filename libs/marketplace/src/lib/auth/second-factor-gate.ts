import { Injectable } from '@nestjs/common';

import type { KinveyDoc } from '../kinvey/kinvey-doc';

/**
 * What a login passes after its right password. This one lets every login
 * through; `mfa/` provides the gate of users with a second factor in its
 * place (`SecondFactorService`), so that sessions, listed before `mfa/`,
 * never import it.
 */
@Injectable()
export class SecondFactorGate {
  /** Undefined when the login may go on, else the challenge to answer. */
  gate(
    _appKey: string,
    _userId: string,
    _body: Readonly<Record<string, unknown>>,
  ): Promise<KinveyDoc | undefined> {
    return Promise.resolve(undefined);
  }
}
