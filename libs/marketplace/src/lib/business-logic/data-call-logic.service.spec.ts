import { newTestService } from '@quitanda/testing';
import type { Request } from 'express';

import { masterOf, testApp, userCaller } from '../../testing/principals';
import type { Principal } from '../auth/principal';
import { MarketplaceErrorCode } from '../common/marketplace.errors';
import type { DataCall } from '../records/data-call-logic';
import { BusinessLogicConfig } from './business-logic-config';
import type { BusinessLogicSnapshot } from './business-logic-config';
import { DataCallLogicService } from './data-call-logic.service';
import type { FlexService } from './business-logic.types';
import { FlexDataService } from './flex-data.service';
import { FlexFunctionsService } from './flex-functions.service';
import type { FunctionResult } from './flex-functions.service';

const SERVICE = { name: 'produce' } as FlexService;
const target = (handler: string) => ({ service: 'produce', handler });

function snapshot(
  parts: Partial<BusinessLogicSnapshot> = {},
): BusinessLogicSnapshot {
  return {
    services: new Map([['produce', SERVICE]]),
    endpoints: new Map(),
    hooks: new Map(),
    dataCollections: new Map(),
    ...parts,
  };
}

function result(overrides: Partial<FunctionResult>): FunctionResult {
  return {
    status: 200,
    continue: true,
    requestBody: undefined,
    requestQuery: undefined,
    responseBody: undefined,
    responseHeaders: {},
    ...overrides,
  };
}

describe('DataCallLogicService', () => {
  let logic: DataCallLogicService;
  let config: jest.Mocked<BusinessLogicConfig>;
  let functions: jest.Mocked<FlexFunctionsService>;
  let data: jest.Mocked<FlexDataService>;
  let req: Request;
  let res: { statusCode: number; status: jest.Mock; setHeader: jest.Mock };
  let handled: jest.Mock;

  /** A data call on `collection` by `principal`, as a controller makes it. */
  function call(
    dataCall: DataCall,
    principal: Principal,
    request: Partial<Request> = {},
    collection = 'offers',
  ): Promise<unknown> {
    req = {
      params: { appKey: 'kid_test', collection },
      headers: {},
      query: {},
      method: 'GET',
      res,
      ...request,
    } as unknown as Request;
    return logic.around(dataCall, principal, collection, req, () =>
      Promise.resolve(handled()),
    );
  }

  beforeEach(async () => {
    const built = await newTestService(DataCallLogicService);
    logic = built.sut;
    config = built.mock(BusinessLogicConfig);
    functions = built.mock(FlexFunctionsService);
    data = built.mock(FlexDataService);
    res = { statusCode: 200, status: jest.fn(), setHeader: jest.fn() };
    res.status.mockImplementation((code: number) => {
      res.statusCode = code;
      return res;
    });
    handled = jest.fn(() => [{ _id: 'a' }]);
  });

  it('costs one snapshot lookup when the app has no business logic', async () => {
    config.snapshot.mockResolvedValue(snapshot({ services: new Map() }));
    await expect(call('list', userCaller('u1'))).resolves.toEqual([
      { _id: 'a' },
    ]);
    expect(config.snapshot).toHaveBeenCalledTimes(1);
    expect(functions.run).not.toHaveBeenCalled();
    expect(data.serve).not.toHaveBeenCalled();
  });

  it("hands a pre-save hook's body and query on, and a post-fetch hook's answer back", async () => {
    config.snapshot.mockResolvedValue(
      snapshot({
        hooks: new Map([
          [
            'offers',
            new Map([
              ['onPreSave', target('check')],
              ['onPostFetch', target('stamp')],
            ]),
          ],
        ]),
      }),
    );
    functions.run.mockResolvedValue(
      result({ requestBody: { name: 'kale' }, requestQuery: { limit: '1' } }),
    );
    await call('create', userCaller('u1'), {
      method: 'POST',
      body: { name: ' kale ' },
    } as Partial<Request>);
    expect(req.body).toEqual({ name: 'kale' });
    expect(req.query).toEqual({ limit: '1' });
    functions.run.mockResolvedValue(
      result({ responseBody: [{ _id: 'a', stamped: true }] }),
    );
    await expect(call('list', userCaller('u1'))).resolves.toEqual([
      { _id: 'a', stamped: true },
    ]);
    expect(functions.run).toHaveBeenLastCalledWith(
      expect.anything(),
      req,
      target('stamp'),
      expect.objectContaining({
        hookType: 'post',
        response: { status: 200, body: [{ _id: 'a' }] },
      }),
    );
  });

  it("ends a call with a pre-hook's own answer, and lets a post-hook's error status win", async () => {
    config.snapshot.mockResolvedValue(
      snapshot({
        hooks: new Map([
          [
            'offers',
            new Map([
              ['onPreDelete', target('keep')],
              ['onPostFetch', target('hide')],
            ]),
          ],
        ]),
      }),
    );
    functions.run.mockResolvedValue(
      result({
        continue: false,
        status: 403,
        responseBody: { error: 'Forbidden' },
      }),
    );
    await expect(
      call('remove', userCaller('u1'), { method: 'DELETE' }),
    ).resolves.toEqual({ error: 'Forbidden' });
    expect(handled).not.toHaveBeenCalled();
    expect(res.statusCode).toBe(403);
    functions.run.mockResolvedValue(
      result({ status: 404, responseBody: { error: 'NotFound' } }),
    );
    await expect(call('get', userCaller('u1'))).resolves.toEqual({
      error: 'NotFound',
    });
    expect(res.statusCode).toBe(404);
  });

  it("runs no hooks for a Flex service's own calls, nor for the master skipping business logic", async () => {
    config.snapshot.mockResolvedValue(
      snapshot({
        hooks: new Map([['offers', new Map([['onPostFetch', target('x')]])]]),
      }),
    );
    await call('list', {
      kind: 'master',
      app: testApp(),
      flexService: 'produce',
    });
    await call('list', masterOf(), {
      headers: { 'x-kinvey-skip-business-logic': 'true' },
    });
    expect(functions.run).not.toHaveBeenCalled();
    expect(handled).toHaveBeenCalledTimes(2);
  });

  it('answers a FlexData collection from its service, and refuses what it cannot answer', async () => {
    config.snapshot.mockResolvedValue(
      snapshot({ dataCollections: new Map([['offers', target('farms')]]) }),
    );
    data.serve.mockResolvedValue({
      status: 201,
      headers: {},
      body: { _id: 'f' },
    });
    await expect(
      call('create', masterOf(), { method: 'POST' }),
    ).resolves.toEqual({
      _id: 'f',
    });
    expect(res.statusCode).toBe(201);
    expect(handled).not.toHaveBeenCalled();
    await expect(call('group', masterOf())).rejects.toMatchObject({
      code: MarketplaceErrorCode.FeatureUnavailable,
    });
  });

  it('runs user calls with their hooks, never from a FlexData binding of the same name', async () => {
    config.snapshot.mockResolvedValue(
      snapshot({
        dataCollections: new Map([['user', target('users')]]),
        hooks: new Map([['user', new Map([['onPostFetch', target('greet')]])]]),
      }),
    );
    functions.run.mockResolvedValue(
      result({ responseBody: [{ _id: 'a', greeted: true }] }),
    );
    await expect(call('list', userCaller('u1'), {}, 'user')).resolves.toEqual([
      { _id: 'a', greeted: true },
    ]);
    expect(handled).toHaveBeenCalledTimes(1);
    expect(data.serve).not.toHaveBeenCalled();
    expect(functions.run.mock.calls[0]?.[3]).toMatchObject({
      hookType: 'post',
      objectName: 'user',
    });
  });
});
