/**
 * Plans, the features each includes and the quotas each allows: the one source the auth
 * middleware checks entitlements against, the shell reports, and /docs#plans publishes.
 */
import * as v from 'valibot';
import type { RouteRow } from '#shared/route-types.ts';

/** Plans in ascending order: a feature of one plan is included in every later one. */
export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export const PlanSchema = v.picklist(PLANS);

/** Features a plan can include, with the lowest plan that has each. */
export const FEATURES = {
  'asset:delete': { minimumPlan: 'pro', description: 'Delete assets (DELETE /api/v1/assets/{assetId}).' },
  'release:scheduling': { minimumPlan: 'pro', description: 'Schedule releases for the workspace default publishing time (an editor hint).' },
  'sso:saml': { minimumPlan: 'enterprise', description: 'Single sign-on through SAML (an editor hint).' },
} as const satisfies Record<string, { minimumPlan: Plan; description: string }>;
export type Feature = keyof typeof FEATURES;
export const FEATURE_LIST = Object.keys(FEATURES) as Feature[];
export const FeatureSchema = v.picklist(FEATURE_LIST);

/** Quotas per plan. Each is counted per workspace in a fixed window. */
export const QUOTAS = {
  'api:write:minute': {
    windowSeconds: 60,
    description: 'Write operations that carry this quota (asset deletion), per workspace per minute.',
    limits: { free: 30, pro: 120, business: 600, enterprise: 3000 },
  },
} as const satisfies Record<string, { windowSeconds: number; description: string; limits: Record<Plan, number> }>;
export type Quota = keyof typeof QUOTAS;
export const QUOTA_LIST = Object.keys(QUOTAS) as Quota[];

/**
 * Billing states. `past_due` keeps the plan during the grace period; `canceled` falls back to
 * what free includes until the organization subscribes again.
 */
export const ENTITLEMENT_STATUSES = ['active', 'trialing', 'past_due', 'canceled'] as const;
export type EntitlementStatus = (typeof ENTITLEMENT_STATUSES)[number];
export const EntitlementStatusSchema = v.picklist(ENTITLEMENT_STATUSES);

/**
 * An organization's entitlement as stored: its plan, billing status and any features granted on
 * top of the plan (an enterprise deal, a trial of one feature).
 */
export const Entitlement = v.object({
  plan: PlanSchema,
  status: EntitlementStatusSchema,
  features: v.optional(v.array(FeatureSchema), []),
});
export type Entitlement = v.InferOutput<typeof Entitlement>;

/** The plan whose features and quotas apply now. */
export function effectivePlan(entitlement: Entitlement): Plan {
  return entitlement.status === 'canceled' ? 'free' : entitlement.plan;
}

/** Features of a plan. */
export function planFeatures(plan: Plan): Feature[] {
  return FEATURE_LIST.filter((feature) => rank(plan) >= rank(FEATURES[feature].minimumPlan));
}

/**
 * Every feature the entitlement includes now: the effective plan's plus the extra grants. A
 * canceled subscription gets exactly what free includes: extra grants were part of the deal
 * that ended.
 */
export function effectiveFeatures(entitlement: Entitlement): Feature[] {
  const extras = entitlement.status === 'canceled' ? [] : entitlement.features;
  const granted = new Set<Feature>([...planFeatures(effectivePlan(entitlement)), ...extras]);
  return FEATURE_LIST.filter((feature) => granted.has(feature));
}

/** The limit of a quota on a plan. */
export function quotaLimit(plan: Plan, quota: Quota): number {
  return QUOTAS[quota].limits[plan];
}

/** The lowest plan that includes a feature. */
export function minimumPlanFor(feature: Feature): Plan {
  return FEATURES[feature].minimumPlan;
}

function rank(plan: Plan): number {
  return PLANS.indexOf(plan);
}

/** The OpenAPI vendor extension that declares a route's feature, minimum plan and quota. */
export const ENTITLEMENT_EXTENSION = 'x-easel-entitlement';

/**
 * The `extensions` of a route row that needs a feature (and optionally counts against a quota):
 * the auth middleware enforces the feature, the docs publish feature, minimum plan and quota.
 *
 * @example extensions: entitlementExtension('asset:delete', 'api:write:minute')
 */
export function entitlementExtension(feature: Feature, quota?: Quota): Record<`x-${string}`, unknown> {
  return { [ENTITLEMENT_EXTENSION]: { feature, minimumPlan: minimumPlanFor(feature), ...(quota ? { quota } : {}) } };
}

/** The feature a route row requires, read from its entitlement extension. */
export function requiredFeatureOf(def: Pick<RouteRow, 'extensions'>): Feature | undefined {
  const value = def.extensions?.[ENTITLEMENT_EXTENSION] as { feature?: unknown } | undefined;
  const feature = value?.feature;
  if (feature === undefined) return undefined;
  if (typeof feature !== 'string' || !(feature in FEATURES)) throw new Error(`Unknown feature in ${ENTITLEMENT_EXTENSION}: ${String(feature)}`);
  return feature as Feature;
}
