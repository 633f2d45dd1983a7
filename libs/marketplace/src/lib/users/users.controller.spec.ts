import { newTestService } from '@quitanda/testing';
import type { Request, Response } from 'express';

import { testApp } from '../../testing/principals';
import type { Principal } from '../auth/principal';
import { MarketplaceError } from '../common/marketplace.errors';
import { DataCallLogic } from '../records/data-call-logic';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

describe('UsersController signup', () => {
  it('runs no business logic for a signup the per-client limit refuses', async () => {
    const built = await newTestService(UsersController);
    const users = built.mock(UsersService);
    const logic = built.mock(DataCallLogic);
    users.admitSignup.mockRejectedValue(
      MarketplaceError.tooManySignups(new Date(), new Date()),
    );
    const app: Principal = { kind: 'app', app: testApp() };
    const req = { ip: '198.51.100.7', body: {} } as unknown as Request;
    await expect(
      built.sut.signup(app, req, {} as Response),
    ).rejects.toBeInstanceOf(MarketplaceError);
    expect(users.admitSignup).toHaveBeenCalledWith(app, '198.51.100.7');
    // The pre-save hook (a Flex call) never ran, nor did the insert.
    expect(logic.around).not.toHaveBeenCalled();
    expect(users.createUser).not.toHaveBeenCalled();
  });
});
