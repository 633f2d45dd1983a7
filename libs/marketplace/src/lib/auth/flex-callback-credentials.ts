import { Injectable } from '@nestjs/common';

/** A Flex service calling back with one of the secrets it was handed. */
export interface FlexCallback {
  readonly kind: 'master' | 'app';
  readonly service: string;
}

/**
 * Which Flex service a secret was handed to, if any. This one knows none;
 * `business-logic/` provides the real one (`BusinessLogicConfig`) in its
 * place, so that auth, below it, never imports it.
 */
@Injectable()
export class FlexCallbackCredentials {
  callbackKind(
    _appKey: string,
    _candidate: string,
  ): Promise<FlexCallback | undefined> {
    return Promise.resolve(undefined);
  }
}
