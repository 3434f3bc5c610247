/** Plans, their features and quotas: the one source for the auth middleware, the shell and /docs#plans. */
import * as v from 'valibot';
import type { RouteRow } from '#shared/route-types.ts';

/** Ascending: a feature of one plan is included in every later one. */
export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export const PlanSchema = v.picklist(PLANS);

export const FEATURES = {
  'asset:delete': { minimumPlan: 'pro', description: 'Delete assets (DELETE /api/v1/assets/{assetId}).' },
  'release:scheduling': { minimumPlan: 'pro', description: 'Schedule releases for the workspace default publishing time (an editor hint).' },
  'sso:saml': { minimumPlan: 'enterprise', description: 'Single sign-on through SAML (an editor hint).' },
} as const satisfies Record<string, { minimumPlan: Plan; description: string }>;
export type Feature = keyof typeof FEATURES;
export const FEATURE_LIST = Object.keys(FEATURES) as Feature[];
export const FeatureSchema = v.picklist(FEATURE_LIST);

/** Each is counted per workspace in a fixed window: `windowSeconds` long, or a calendar month (UTC). */
export const QUOTAS = {
  'api:write:minute': {
    windowSeconds: 60,
    description: 'Write operations that carry this quota (asset deletion), per workspace per minute.',
    limits: { free: 30, pro: 120, business: 600, enterprise: 3000 },
  },
  'shots:month': {
    window: 'month',
    description: 'Release shots queued (POST /api/v1/releases/{releaseId}/shots, each shot after the matrix), per workspace per calendar month (UTC).',
    limits: { free: 100, pro: 2000, business: 10000, enterprise: 50000 },
  },
} as const satisfies Record<string, ({ windowSeconds: number } | { window: 'month' }) & { description: string; limits: Record<Plan, number> }>;
export type Quota = keyof typeof QUOTAS;
export const QUOTA_LIST = Object.keys(QUOTAS) as Quota[];

/** `past_due` keeps the plan during the grace period; `canceled` falls back to free. */
export const ENTITLEMENT_STATUSES = ['active', 'trialing', 'past_due', 'canceled'] as const;
export type EntitlementStatus = (typeof ENTITLEMENT_STATUSES)[number];
export const EntitlementStatusSchema = v.picklist(ENTITLEMENT_STATUSES);

/** As stored; `features` are granted on top of the plan (a deal, a trial). */
export const Entitlement = v.object({
  plan: PlanSchema,
  status: EntitlementStatusSchema,
  features: v.optional(v.array(FeatureSchema), []),
});
export type Entitlement = v.InferOutput<typeof Entitlement>;

export function effectivePlan(entitlement: Entitlement): Plan {
  return entitlement.status === 'canceled' ? 'free' : entitlement.plan;
}

export function planFeatures(plan: Plan): Feature[] {
  return FEATURE_LIST.filter((feature) => rank(plan) >= rank(FEATURES[feature].minimumPlan));
}

/** The effective plan's features plus extra grants, which a cancellation ends with the deal. */
export function effectiveFeatures(entitlement: Entitlement): Feature[] {
  const extras = entitlement.status === 'canceled' ? [] : entitlement.features;
  const granted = new Set<Feature>([...planFeatures(effectivePlan(entitlement)), ...extras]);
  return FEATURE_LIST.filter((feature) => granted.has(feature));
}

export function quotaLimit(plan: Plan, quota: Quota): number {
  return QUOTAS[quota].limits[plan];
}

/** A fixed window's length in seconds; undefined for a calendar month. */
export function quotaWindowSeconds(quota: Quota): number | undefined {
  const def = QUOTAS[quota];
  return 'windowSeconds' in def ? def.windowSeconds : undefined;
}

export function quotaWindowName(quota: Quota): string {
  const seconds = quotaWindowSeconds(quota);
  return seconds === undefined ? 'calendar month (UTC)' : `${seconds} s`;
}

export function minimumPlanFor(feature: Feature): Plan {
  return FEATURES[feature].minimumPlan;
}

function rank(plan: Plan): number {
  return PLANS.indexOf(plan);
}

/** Declares a route's feature, minimum plan and quota. */
export const ENTITLEMENT_EXTENSION = 'x-easel-entitlement';

/** The `extensions` of a row that needs a feature (and counts a quota): the auth middleware enforces it, the docs publish it. */
export function entitlementExtension(feature: Feature, quota?: Quota): Record<`x-${string}`, unknown> {
  return { [ENTITLEMENT_EXTENSION]: { feature, minimumPlan: minimumPlanFor(feature), ...(quota ? { quota } : {}) } };
}

/** Throws on an unknown feature, so a bad row fails the cold start. */
export function requiredFeatureOf(def: Pick<RouteRow, 'extensions'>): Feature | undefined {
  const value = def.extensions?.[ENTITLEMENT_EXTENSION] as { feature?: unknown } | undefined;
  const feature = value?.feature;
  if (feature === undefined) return undefined;
  if (typeof feature !== 'string' || !(feature in FEATURES)) throw new Error(`Unknown feature in ${ENTITLEMENT_EXTENSION}: ${String(feature)}`);
  return feature as Feature;
}
