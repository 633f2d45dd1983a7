import { Injectable } from '@nestjs/common';
import type { Request } from 'express';

import type { Principal } from '../auth/principal';

/**
 * The collection whose hooks run around the user calls (signup as a
 * create, then list, get, update, delete), as Kinvey's run on `user`.
 */
export const USER_COLLECTION = 'user';

/** The data and user calls, as business logic tells them apart. */
export type DataCall =
  | 'list'
  | 'get'
  | 'count'
  | 'create'
  | 'update'
  | 'remove'
  | 'removeWhere'
  | 'deltaSet'
  | 'group';

/**
 * The business logic around a data call. This one has none and runs the
 * call; `business-logic/` provides the real one (`DataCallLogicService`) in
 * its place, so that records/, below it, never imports it. A method, not a
 * Nest interceptor: an interceptor's observable chain cost a third of a
 * create's instructions on every call, business logic or not.
 */
@Injectable()
export class DataCallLogic {
  /**
   * Runs `call` (which reads the request's body and query when it starts,
   * after a pre-hook may have changed them) and returns the answer's body.
   */
  around(
    _call: DataCall,
    _principal: Principal,
    _collection: string,
    _req: Request,
    run: () => Promise<unknown>,
  ): Promise<unknown> {
    return run();
  }
}
