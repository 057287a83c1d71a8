import type { DomainDeps } from '../deps.js';
import type { Actor } from '../actor.js';
import type { RegistrationBody } from '../../../api/schemas/registrations.js';
import type { BrandRecord } from '../../storage/brands-repo.js';
import type { CampaignRecord } from '../../storage/campaigns-repo.js';
import type { RegistrationDeps } from './deps.js';
import { insertBrand, registerBrandJobs } from './brands.js';
import { insertCampaign, registerCampaignJobs } from './campaigns.js';

// contract §7: the combined registration.

/**
 * contract §7: `POST /v1/registrations {brand, campaign}` — both or neither, in one transaction (the
 * body is validated whole before anything is written). The campaign starts `draft` and is submitted
 * by itself when its brand is approved: at once for a mock brand (approved on creation); a rejected
 * brand leaves it `draft`.
 */
export async function register(deps: RegistrationDeps, actor: Actor, body: RegistrationBody): Promise<{ brand: BrandRecord; campaign: CampaignRecord }> {
  return await deps.uow.write(async (tx) => {
    const brand = await insertBrand(tx, actor, body.brand);
    const campaign = await insertCampaign(tx, actor, brand, body.campaign, brand.status === 'approved' ? 'submitted' : 'draft');
    return { brand, campaign };
  });
}

/** The simulated registry's durable jobs (contract §7: decisions on the service clock). */
export function registerRegistrationJobs(deps: DomainDeps): void {
  registerBrandJobs(deps);
  registerCampaignJobs(deps);
}
