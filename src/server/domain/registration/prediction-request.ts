// contract §7: `POST /v1/registrations/predict {brand?, campaign}` for a caller. The rule engine
// itself is pure (prediction.ts); this is the one step that reads storage: a `campaign.brandId`
// without `brand` is checked against that brand of the caller's account.

import type { PredictBody } from '../../../api/schemas/registrations.js';
import type { Actor } from '../actor.js';
import type { BrandRecord } from '../../storage/brands-repo.js';
import type { RegistrationDeps } from './deps.js';
import { getBrand } from './brands.js';
import { predictApproval, type Prediction, type PredictionInput } from './prediction.js';

/**
 * The prediction of a campaign for the caller. `brand` wins when given (a brand not yet registered);
 * else `campaign.brandId` names a brand of the account (`not_found` for any other, another
 * account's included); else the brand is unknown and the checks that need it fail.
 */
export async function predictForActor(deps: Pick<RegistrationDeps, 'brands'>, actor: Actor, body: PredictBody): Promise<Prediction> {
  const { brandId, ...campaign } = body.campaign;
  let brand: PredictionInput['brand'] = body.brand ?? null;
  if (!brand && brandId !== undefined) brand = brandInputOf(await getBrand(deps, actor, brandId));
  return predictApproval({ brand, campaign });
}

/** What the prediction reads of a stored brand (spec: Brand — the registration request's fields). */
export function brandInputOf(b: BrandRecord): NonNullable<PredictionInput['brand']> {
  return {
    legalName: b.legalName,
    entityType: b.entityType,
    displayName: b.fields.displayName ?? null,
    website: b.fields.website ?? null,
    email: b.fields.email ?? null,
  };
}
