import { Module, RequestMethod } from '@nestjs/common';
import type {
  DynamicModule,
  INestApplicationContext,
  MiddlewareConsumer,
  NestModule,
} from '@nestjs/common';
import { Inject } from '@nestjs/common';
import { urlencoded } from 'express';

import { AppBootstrapService } from './apps/app-bootstrap.service';
import { AppsRepository } from './apps/apps.repository';
import { AppsService } from './apps/apps.service';
import { AuthService } from './auth/auth.service';
import { CredentialsRepository } from './auth/credentials.repository';
import { SESSION_CACHE_PROVIDER } from './auth/session-cache';
import { KinveyAuthGuard } from './auth/kinvey-auth.guard';
import {
  CreateAppCommand,
  ImportCommand,
  ListAppsCommand,
  SetPasswordCommand,
} from './cli/marketplace-cli.commands';
import { DataCallLogic } from './records/data-call-logic';
import { DataController } from './records/data.controller';
import { RecordsRepository } from './records/records.repository';
import { RecordsService } from './records/records.service';
import { BlobController } from './files/blob.controller';
import { FileQueryService } from './files/file-query.service';
import { FilesRepository } from './files/files.repository';
import { FilesService } from './files/files.service';
import { TransferController } from './files/transfer.controller';
import { TransferService } from './files/transfer.service';
import { kinveyHttp } from './http/kinvey-http.middleware';
import { MARKETPLACE_OPTIONS } from './common/marketplace.constants';
import type { MarketplaceModuleOptions } from './common/marketplace.options';
import { MatchRepository } from './match/match.repository';
import { MatchService } from './match/match.service';
import { MarketplaceDatabase } from './persistence/marketplace-database';
import { RpcController } from './match/rpc.controller';
import { LoginAttemptsPurgeService } from './auth/login-attempts-purge.service';
import { LoginService } from './auth/login.service';
import { SessionsController } from './auth/sessions.controller';
import { SessionsService } from './auth/sessions.service';
import { UserQueryService } from './users/user-query.service';
import { UsernameCheckController } from './users/username-check.controller';
import { UsersController } from './users/users.controller';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';
import { KinveyImportService } from './import/kinvey-import.service';
import { AccountActionsService } from './accounts/account-actions.service';
import { AuthenticatorsController } from './mfa/authenticators.controller';
import { AuthenticatorsService } from './mfa/authenticators.service';
import { MfaLoginController } from './mfa/mfa-login.controller';
import { MfaLoginService } from './mfa/mfa-login.service';
import { MfaRepository } from './mfa/mfa.repository';
import { SecondFactorService } from './mfa/second-factor.service';
import { SecondFactorGate } from './auth/second-factor-gate';
import { AccountMailer } from './accounts/account-mailer';
import { SignupCountsRepository } from './users/signup-counts.repository';
import { AccountMailRepository } from './accounts/account-mail.repository';
import { AccountMailWorker } from './accounts/account-mail.worker';
import { AccountPagesController } from './accounts/account-pages.controller';
import { AccountTokensRepository } from './accounts/account-tokens.repository';
import { COLLECTION_COMMANDS } from './cli/collections-cli.commands';
import { BUSINESS_LOGIC_COMMANDS } from './cli/business-logic-cli.commands';
import { CollectionRpcController } from './collection-rpc/collection-rpc.controller';
import { CollectionsController } from './app-collections/collections.controller';
import { CollectionsRepository } from './app-collections/collections.repository';
import { CollectionsService } from './app-collections/collections.service';
import { SystemCollectionsService } from './collection-rpc/system-collections.service';
import { FlexCallbackCredentials } from './auth/flex-callback-credentials';
import { BusinessLogicConfig } from './business-logic/business-logic-config';
import { BusinessLogicController } from './business-logic/business-logic.controller';
import { DataCallLogicService } from './business-logic/data-call-logic.service';
import { BusinessLogicRepository } from './business-logic/business-logic.repository';
import { FlexClient } from './business-logic/flex-client';
import { FlexDataService } from './business-logic/flex-data.service';
import { FlexFunctionsService } from './business-logic/flex-functions.service';
import { OPERATOR_COMMANDS } from './cli/operators-cli.commands';
import { ManageBusinessLogicController } from './manage/manage-business-logic.controller';
import { ManageCollectionsController } from './manage/manage-collections.controller';
import { ManageServicesController } from './manage/manage-services.controller';
import { ManagedBusinessLogicService } from './manage/managed-business-logic.service';
import { ManagedServicesRepository } from './manage/managed-services.repository';
import { ManagedServicesService } from './manage/managed-services.service';
import {
  IdentityProvidersController,
  ManageSessionController,
} from './manage/manage-session.controller';
import { ManageController } from './manage/manage.controller';
import { ManagedAppsRepository } from './manage/managed-apps.repository';
import { ManagedAppsService } from './manage/managed-apps.service';
import { OperatorAuthGuard } from './manage/operator-auth.guard';
import { OperatorSessionsService } from './manage/operator-sessions.service';
import { OperatorsRepository } from './manage/operators.repository';
import { GroupsController, RolesController } from './manage/roles.controller';

/** Apps, users, records, files, matching (no HTTP). */
const MARKETPLACE_PROVIDERS = [
  MarketplaceDatabase,
  SESSION_CACHE_PROVIDER,
  CollectionsRepository,
  CollectionsService,
  SystemCollectionsService,
  AppsRepository,
  AppsService,
  AppBootstrapService,
  UsersRepository,
  CredentialsRepository,
  LoginService,
  LoginAttemptsPurgeService,
  SessionsService,
  UsersService,
  SignupCountsRepository,
  UserQueryService,
  AuthService,
  KinveyAuthGuard,
  RecordsRepository,
  RecordsService,
  FilesRepository,
  FilesService,
  FileQueryService,
  TransferService,
  MatchRepository,
  MatchService,
  AccountMailer,
  AccountMailRepository,
  AccountMailWorker,
  AccountTokensRepository,
  AccountActionsService,
  MfaRepository,
  SecondFactorService,
  // Logins pass the users' second factors (sessions sit below mfa/).
  { provide: SecondFactorGate, useExisting: SecondFactorService },
  AuthenticatorsService,
  MfaLoginService,
  BusinessLogicRepository,
  BusinessLogicConfig,
  // Secrets handed to Flex services authenticate their calls back (auth/
  // sits below business-logic/).
  { provide: FlexCallbackCredentials, useExisting: BusinessLogicConfig },
  FlexClient,
  FlexFunctionsService,
  FlexDataService,
  DataCallLogicService,
  // Data calls run the collections' business logic (records/ sits below
  // business-logic/, which reads its access rules).
  { provide: DataCallLogic, useExisting: DataCallLogicService },
  OperatorsRepository,
  OperatorSessionsService,
  OperatorAuthGuard,
  ManagedAppsRepository,
  ManagedAppsService,
  ManagedServicesRepository,
  ManagedServicesService,
  ManagedBusinessLogicService,
];

const KINVEY_NAMESPACES = [
  'appdata',
  'user',
  'blob',
  'rpc',
  'admin',
  'roles',
  'group',
  'manage',
];

const CONTROLLERS = [
  DataController,
  // Before UsersController: its routes are more specific than `:id`.
  MfaLoginController,
  AuthenticatorsController,
  UsersController,
  SessionsController,
  TransferController,
  BlobController,
  UsernameCheckController,
  RpcController,
  CollectionsController,
  BusinessLogicController,
  CollectionRpcController,
  AccountPagesController,
  RolesController,
  GroupsController,
  ManageSessionController,
  IdentityProvidersController,
  ManageController,
  ManageCollectionsController,
  ManageServicesController,
  ManageBusinessLogicController,
];

/**
 * The marketplace context (Kinvey-compatible data service). Expects the
 * gateway to register the `MARKETPLACE_DATA_SOURCE` connection and `CLOCK`.
 */
@Module({})
export class MarketplaceModule implements NestModule {
  constructor(
    @Inject(MARKETPLACE_OPTIONS)
    private readonly options: MarketplaceModuleOptions,
  ) {}

  static forRoot(options: MarketplaceModuleOptions): DynamicModule {
    return {
      module: MarketplaceModule,
      controllers: CONTROLLERS,
      providers: [
        { provide: MARKETPLACE_OPTIONS, useValue: options },
        ...MARKETPLACE_PROVIDERS,
      ],
      exports: [AppBootstrapService],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    // By path, not by controller: preflights (OPTIONS) match no route.
    consumer.apply(kinveyHttp(this.options.maxBodyBytes)).forRoutes(
      ...KINVEY_NAMESPACES.map((path) => ({
        path: `${path}/{*rest}`,
        method: RequestMethod.ALL,
      })),
    );
    // The forms of the pages behind mailed links.
    consumer
      .apply(urlencoded({ extended: false, limit: '16kb' }))
      .forRoutes({ path: 'account/{*rest}', method: RequestMethod.POST });
  }
}

/** The context's operator commands (apps, collections, Flex services...). */
@Module({})
export class MarketplaceCliModule {
  static forRoot(options: MarketplaceModuleOptions): DynamicModule {
    return {
      module: MarketplaceCliModule,
      providers: [
        { provide: MARKETPLACE_OPTIONS, useValue: options },
        MarketplaceDatabase,
        CollectionsRepository,
        CollectionsService,
        AppsRepository,
        AppsService,
        UsersRepository,
        CredentialsRepository,
        FilesRepository,
        FilesService,
        RecordsRepository,
        KinveyImportService,
        CreateAppCommand,
        ListAppsCommand,
        ImportCommand,
        SetPasswordCommand,
        OperatorsRepository,
        ...OPERATOR_COMMANDS,
        ...COLLECTION_COMMANDS,
        BusinessLogicRepository,
        BusinessLogicConfig,
        FlexClient,
        ...BUSINESS_LOGIC_COMMANDS,
      ],
    };
  }
}

/**
 * First-boot work for the gateway: the configured app, or a generated demo
 * app on an empty database (its secrets returned for initial-credentials.json).
 */
export function bootstrapMarketplace(
  app: INestApplicationContext,
): Promise<Record<string, string> | undefined> {
  return app.get(AppBootstrapService, { strict: false }).run();
}
