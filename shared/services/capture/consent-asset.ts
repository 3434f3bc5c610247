/** What blockBanners injects, as bundling writes it (infra/assets/consent-script.ts) and the capture reads it. */
import type { IndexedCMPRuleset } from '@duckduckgo/autoconsent';

export const AUTOCONSENT_FILE = 'autoconsent.json';

/** The name under which the script receives its rules, as a JSON string. */
export const CONSENT_RULES_PARAMETER = 'easelConsentRules';

export interface ConsentAsset {
  /** autoconsent with an entry that starts it on `CONSENT_RULES_PARAMETER`. */
  script: string;
  rules: IndexedCMPRuleset;
}
