import { CreateErrorTracking1795322979204 } from './1795322979204-CreateErrorTracking';
import { CreateEventsPartitioned1795322979205 } from './1795322979205-CreateEventsPartitioned';
import { CreateWebSessions1795331783744 } from './1795331783744-CreateWebSessions';
import { CreateSourceMapArtifacts1795588722324 } from './1795588722324-CreateSourceMapArtifacts';
import { AddAlerts1795589959974 } from './1795589959974-AddAlerts';
import { AddRateLimitCategories1795727981276 } from './1795727981276-AddRateLimitCategories';
import { AddPasswordExpiresAtToUsers1795729156640 } from './1795729156640-AddPasswordExpiresAtToUsers';
import { AddInstanceSettings1795800000000 } from './1795800000000-AddInstanceSettings';
import { AddDrainedSpoolRequests1795900000000 } from './1795900000000-AddDrainedSpoolRequests';
import { AddTriage1795943168059 } from './1795943168059-AddTriage';
import { AddEventAttachments1795943196317 } from './1795943196317-AddEventAttachments';
import { AddEventTags1796000036200 } from './1796000036200-AddEventTags';
import { AddEnvironmentToErrorHourlyCounts1796100000000 } from './1796100000000-AddEnvironmentToErrorHourlyCounts';
import { AddFirstSeenToErrorTags1796200000000 } from './1796200000000-AddFirstSeenToErrorTags';

/** Every migration of the error_tracking schema, oldest first. */
export const ERROR_TRACKING_MIGRATIONS = [
  CreateErrorTracking1795322979204,
  CreateEventsPartitioned1795322979205,
  CreateWebSessions1795331783744,
  CreateSourceMapArtifacts1795588722324,
  AddAlerts1795589959974,
  AddRateLimitCategories1795727981276,
  AddPasswordExpiresAtToUsers1795729156640,
  AddInstanceSettings1795800000000,
  AddDrainedSpoolRequests1795900000000,
  AddTriage1795943168059,
  AddEventAttachments1795943196317,
  AddEventTags1796000036200,
  AddEnvironmentToErrorHourlyCounts1796100000000,
  AddFirstSeenToErrorTags1796200000000,
];
