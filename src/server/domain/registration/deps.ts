import type { Clock } from '../../clock.js';
import type { UnitOfWork, DomainScheduler } from '../deps.js';
import type { BrandsRepo } from '../../storage/brands-repo.js';
import type { CampaignsRepo } from '../../storage/campaigns-repo.js';
import type { BillingDeps } from '../billing/charging.js';

/** What 10DLC registration reads and writes (a Pick of the service deps). */
export interface RegistrationDeps extends BillingDeps {
  uow: UnitOfWork;
  clock: Clock;
  scheduler: DomainScheduler;
  brands: BrandsRepo;
  campaigns: CampaignsRepo;
}

/** Scheduler job kinds of the simulated registry (contract §7: decisions on the service clock). */
export const JOB_BRAND_DECISION = 'registry.brand_decision';
export const JOB_CAMPAIGN_DCA_REVIEW = 'registry.campaign_dca_review';
export const JOB_CAMPAIGN_DECISION = 'registry.campaign_decision';
export const JOB_CNP_SHARING = 'registry.cnp_sharing';
