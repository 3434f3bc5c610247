/** A valibot issue's place, apart from the schemas so code that only names fields bundles none of them. */
import type * as v from 'valibot';
/** Where an issue is, as a field path: `release.tag_name`, `data.urls[2]`; empty at the top. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  const keys = (issue.path ?? []).map((item) => String(item.key));
  return keys.reduce((acc, key) => (/^\d+$/.test(key) ? `${acc}[${key}]` : acc ? `${acc}.${key}` : key), '');
}
