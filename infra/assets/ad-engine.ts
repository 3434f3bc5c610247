/**
 * The ad engine the capture function loads (docs/dependencies.md, "Clean captures"): AdGuard's
 * filter text, which @adguard/dnr-rulesets ships inside its rulesets, parsed by
 * @ghostery/adblocker; only the network and element-hiding rules a capture uses are kept.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FiltersEngine } from '@ghostery/adblocker';

/** AdGuard Base: EasyList + AdGuard English (Tracking Protection would add 6 MB of rules for requests that draw nothing). */
export const AD_LISTS = [2] as const;

/** Rules a capture has no use for: scriptlets, JS/CSS injection, HTML filtering, redirects, popups, CSP. */
const UNUSED =
  /#[$%?@]*[$%?]#|\$\$|#\?#|\$.*\b(redirect|redirect-rule|removeparam|csp|permissions|replace|header|popup|cookie|stealth|jsonprune|urltransform|hls|document)\b/;

/** The raw filter text of AdGuard list `id`, as the package ships it inside its DNR ruleset. */
export function rawList(id: number): string {
  const root = dirname(createRequire(import.meta.url).resolve('@adguard/dnr-rulesets/package.json'));
  const ruleset = JSON.parse(readFileSync(join(root, 'dist', 'filters', 'declarative', `ruleset_${id}`, `ruleset_${id}.json`), 'utf8')) as [
    { metadata: { rawFilterList: string } },
  ];
  return ruleset[0].metadata.rawFilterList;
}

/** Network and element-hiding rules of the lists, parsed and serialized. */
export function buildAdEngine(): Uint8Array {
  const kept = AD_LISTS.flatMap((id) => rawList(id).split(/\r?\n/)).filter((line) => line && !line.startsWith('!') && !UNUSED.test(line));
  const engine = FiltersEngine.parse(kept.join('\n'), {
    loadNetworkFilters: true,
    loadCosmeticFilters: true,
    loadGenericCosmeticsFilters: true,
    loadExtendedSelectors: false,
    loadCSPFilters: false,
    enableHtmlFiltering: false,
    enableCompression: true,
    loadPreprocessors: false,
  });
  return engine.serialize();
}

let built: Uint8Array | undefined;

/** The engine built once per process, for the local runtime and tests. */
export function cachedAdEngine(): Uint8Array {
  built ??= buildAdEngine();
  return built;
}
