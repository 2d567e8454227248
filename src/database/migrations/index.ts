import { InitialSchema1795332378641 } from './1795332378641-InitialSchema';
import { AccessControl1795359149649 } from './1795359149649-AccessControl';
import { RateLimitCounters1795500000000 } from './1795500000000-RateLimitCounters';
import { ChangesContributorIndex1795600000000 } from './1795600000000-ChangesContributorIndex';
import { ProjectPermissionsRole1795710000000 } from './1795710000000-ProjectPermissionsRole';
import { DrfFidelity1795714479697 } from './1795714479697-DrfFidelity';
import { TranslationPlural1795800000000 } from './1795800000000-TranslationPlural';
import { WeblateBuiltinRoles1795900000000 } from './1795900000000-WeblateBuiltinRoles';
import { SuggestionsComments1795900000001 } from './1795900000001-SuggestionsComments';
import { ComponentAlerts1795900000002 } from './1795900000002-ComponentAlerts';
import { SearchIndexes1795900000003 } from './1795900000003-SearchIndexes';
import { QualityChecks1795900000004 } from './1795900000004-QualityChecks';
import { ChangeFeed1796000000000 } from './1796000000000-ChangeFeed';
import { ChangeFeedCursors1796000000001 } from './1796000000001-ChangeFeedCursors';
import { Webhooks1796300000000 } from './1796300000000-Webhooks';
import { NotificationMail1796400000000 } from './1796400000000-NotificationMail';
import { AuthNotify1796630000000 } from './1796630000000-AuthNotify';
import { SearchFilterIndexes1796640000000 } from './1796640000000-SearchFilterIndexes';
import { ChangeFeedHorizon1796650000000 } from './1796650000000-ChangeFeedHorizon';
import { ChangeReferenceTriggers1796670000000 } from './1796670000000-ChangeReferenceTriggers';
import { SourceTrigramsOnSourceUnits1796670000001 } from './1796670000001-SourceTrigramsOnSourceUnits';
import { Labels1796700000000 } from './1796700000000-Labels';
import { ChangeReferenceCheckOnePass1796700600000 } from './1796700600000-ChangeReferenceCheckOnePass';
import { LinkedToSourceIndex1796701400000 } from './1796701400000-LinkedToSourceIndex';
import { UrlSegmentFunction1796701500000 } from './1796701500000-UrlSegmentFunction';
import { AuthNotifyTransaction1796701600000 } from './1796701600000-AuthNotifyTransaction';

// Migrations are listed as classes, not by glob, so the same list works under tsc output and ts-jest
// (stack-evaluation.md §8.4). Append new ones at the end.
export const MIGRATIONS: Function[] = [
  InitialSchema1795332378641,
  AccessControl1795359149649,
  RateLimitCounters1795500000000,
  ChangesContributorIndex1795600000000,
  ProjectPermissionsRole1795710000000,
  DrfFidelity1795714479697,
  TranslationPlural1795800000000,
  WeblateBuiltinRoles1795900000000,
  SuggestionsComments1795900000001,
  ComponentAlerts1795900000002,
  SearchIndexes1795900000003,
  QualityChecks1795900000004,
  ChangeFeed1796000000000,
  ChangeFeedCursors1796000000001,
  Webhooks1796300000000,
  NotificationMail1796400000000,
  AuthNotify1796630000000,
  SearchFilterIndexes1796640000000,
  ChangeFeedHorizon1796650000000,
  ChangeReferenceTriggers1796670000000,
  SourceTrigramsOnSourceUnits1796670000001,
  Labels1796700000000,
  ChangeReferenceCheckOnePass1796700600000,
  LinkedToSourceIndex1796701400000,
  UrlSegmentFunction1796701500000,
  AuthNotifyTransaction1796701600000,
];
