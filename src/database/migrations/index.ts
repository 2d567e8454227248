import { InitialSchema1795332378641 } from './1795332378641-InitialSchema';
import { AccessControl1795359149649 } from './1795359149649-AccessControl';
import { RateLimitCounters1795500000000 } from './1795500000000-RateLimitCounters';
import { ChangesContributorIndex1795600000000 } from './1795600000000-ChangesContributorIndex';
import { ProjectPermissionsRole1795710000000 } from './1795710000000-ProjectPermissionsRole';

// Migrations are listed as classes, not by glob, so the same list works under tsc output and ts-jest
// (stack-evaluation.md §8.4). Append new ones at the end.
export const MIGRATIONS: Function[] = [
  InitialSchema1795332378641,
  AccessControl1795359149649,
  RateLimitCounters1795500000000,
  ChangesContributorIndex1795600000000,
  ProjectPermissionsRole1795710000000,
];
