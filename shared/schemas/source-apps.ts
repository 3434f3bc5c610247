import * as v from 'valibot';
import { HttpUrl } from '#shared/schemas/common.ts';

const text = (min: number, max: number) => v.pipe(v.string(), v.minLength(min), v.maxLength(max));

export const SourceAppCreate = v.strictObject({
  allowedHosts: v.pipe(v.array(HttpUrl), v.minLength(1), v.maxLength(50), v.description('Absolute URIs the app posts from, 1 to 50.')),
  name: v.pipe(text(1, 100), v.description('Display name, 1–100 characters.')),
  externalId: v.optional(v.pipe(text(0, 160), v.description("The app's id in its own system."))),
  provider: v.optional(v.pipe(text(1, 64), v.description('Integration provider.')), 'generic'),
  secretReference: v.optional(v.pipe(text(0, 128), v.description('Name of the secret the app signs with (never the secret itself).'))),
});
export type SourceAppCreate = v.InferOutput<typeof SourceAppCreate>;

export const SourceApp = v.object({
  id: v.string(),
  name: v.string(),
  allowedHosts: v.array(v.string()),
  externalId: v.optional(v.string()),
  provider: v.string(),
  secretReference: v.optional(v.string()),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
});
export type SourceApp = v.InferOutput<typeof SourceApp>;
