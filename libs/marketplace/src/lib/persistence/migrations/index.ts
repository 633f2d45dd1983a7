import { CreateMarketplace1795331816132 } from './1795331816132-CreateMarketplace';
import { RecordsDocIndex1795335000000 } from './1795335000000-RecordsDocIndex';
import { RecordsTextFieldIndexes1795588765012 } from './1795588765012-RecordsTextFieldIndexes';
import { UnloggedLoginAttempts1795650000000 } from './1795650000000-UnloggedLoginAttempts';
import { DisableReservedUserIds1795727426293 } from './1795727426293-DisableReservedUserIds';
import { CreateCollections1795800000000 } from './1795800000000-CreateCollections';
import { CreateAccountTokens1795800000001 } from './1795800000001-CreateAccountTokens';
import { CreateAccountMailQuiet1795800000100 } from './1795800000100-CreateAccountMailQuiet';
import { AddRecordUniqueValues1795800000200 } from './1795800000200-AddRecordUniqueValues';
import { AddAclToRecordTombstones1795800000300 } from './1795800000300-AddAclToRecordTombstones';
import { CreateMfa1795900000000 } from './1795900000000-CreateMfa';
import { KeepDeltaSetsOfDeclaredCollections1795904317000 } from './1795904317000-KeepDeltaSetsOfDeclaredCollections';
import { CreateAccountMail1795932022099 } from './1795932022099-CreateAccountMail';
import { CreateSignupCounts1795933737415 } from './1795933737415-CreateSignupCounts';
import { CreateOperatorsAndManagedApps1795943193075 } from './1795943193075-CreateOperatorsAndManagedApps';
import { CreateManagedBusinessLogic1795943838083 } from './1795943838083-CreateManagedBusinessLogic';
import { SealRecoveryCodes1795950000000 } from './1795950000000-SealRecoveryCodes';
import { CreateBusinessLogic1796000000000 } from './1796000000000-CreateBusinessLogic';

/** Every migration of the marketplace schema, oldest first. */
export const MARKETPLACE_MIGRATIONS = [
  CreateMarketplace1795331816132,
  RecordsDocIndex1795335000000,
  RecordsTextFieldIndexes1795588765012,
  UnloggedLoginAttempts1795650000000,
  DisableReservedUserIds1795727426293,
  CreateCollections1795800000000,
  CreateAccountTokens1795800000001,
  CreateAccountMailQuiet1795800000100,
  AddRecordUniqueValues1795800000200,
  AddAclToRecordTombstones1795800000300,
  CreateMfa1795900000000,
  KeepDeltaSetsOfDeclaredCollections1795904317000,
  CreateAccountMail1795932022099,
  CreateSignupCounts1795933737415,
  CreateOperatorsAndManagedApps1795943193075,
  CreateManagedBusinessLogic1795943838083,
  SealRecoveryCodes1795950000000,
  CreateBusinessLogic1796000000000,
];
