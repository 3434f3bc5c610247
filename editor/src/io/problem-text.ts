/**
 * Every failure the editor can meet from the API, in words for people: what happened and what to
 * do. The envelope's own message and hint stay available as details for developers.
 */
import { MAX_CAPTURE_PIXELS, MAX_CSS_LENGTH, MAX_USER_AGENT_LENGTH, VIEWPORT_BOUNDS } from '../model/capture-request.ts';
import { accountProblem } from './account-problems.ts';
import type { Explanation, Failure } from './failure.ts';

export type Activity = 'capture' | 'tweet' | 'media' | 'export' | 'save' | 'sign-in' | 'account' | 'releases' | 'other';

/** The routes of signing in (the dialog, and who is signed in); the rest of /api/v1/auth/ is the account menu's. */
const SIGN_IN_ROUTES = new Set([
  '/api/v1/me',
  '/api/v1/auth/session',
  '/api/v1/auth/email-code',
  '/api/v1/auth/email-code/verify',
  '/api/v1/auth/passkey/options',
  '/api/v1/auth/passkey/verify',
]);

/** What the user was doing, from the route. */
export function activityOf(path: string | undefined): Activity {
  const route = path?.split('?')[0] ?? '';
  if (route === '/api/screenshot') return 'capture';
  if (route.startsWith('/api/tweet/')) return 'tweet';
  if (route === '/api/image-proxy') return 'media';
  if (route === '/api/export') return 'export';
  if (route.startsWith('/api/v1/assets')) return 'save';
  if (SIGN_IN_ROUTES.has(route)) return 'sign-in';
  if (route.startsWith('/api/v1/auth/') || route.startsWith('/api/v1/organizations')) return 'account';
  if (route.startsWith('/api/v1/releases')) return 'releases';
  return 'other';
}

const DOING: Record<Activity, string> = {
  capture: 'capture the page',
  tweet: 'load the tweet',
  media: 'load the image',
  export: 'convert the export',
  save: 'save to the workspace',
  'sign-in': 'sign you in',
  account: 'change your account',
  releases: 'read the releases',
  other: 'do that',
};

/** "in 42 s", or "in a minute" when the API gave no figure. */
function inTime(seconds: number | undefined): string {
  return seconds !== undefined && seconds > 0 ? `in ${Math.ceil(seconds)} s` : 'in a minute';
}

function invalidUrl(failure: Failure): Explanation {
  if (/resolve/i.test(failure.message)) {
    return { message: 'No website answers at that address.', advice: 'Check the address for typos, then capture again.' };
  }
  if (/not allowed|refused/i.test(failure.message)) {
    return {
      message: 'That address is on a private or local network, which Easel does not capture.',
      advice: 'Capture a page that is public on the internet, or save it as an image and open the file instead.',
    };
  }
  return {
    message: 'That is not a web address Easel can capture.',
    advice: 'Enter a full address such as https://example.com, without spaces or a user name and password.',
  };
}

/**
 * The request field a capture's refusal names: the validator's "Invalid cookies[2].value" or
 * "Unknown field css", as the top field and what follows it.
 */
export function refusedField(message: string): { field: string; rest: string } | undefined {
  const match = /^(?:Invalid|Unknown field|Missing field|Unsupported value for) ([A-Za-z]+)(\S*)/.exec(message);
  return match ? { field: match[1]!, rest: match[2]! } : undefined;
}

const n = (value: number) => value.toLocaleString('en');
const { width, height } = VIEWPORT_BOUNDS;

/** Each option of the capture form in words, for a refusal naming it. */
const CAPTURE_FIELDS: Record<string, (rest: string) => Explanation> = {
  viewport: () => ({
    message: 'The viewport size was refused.',
    advice: `Under Advanced, choose a preset, or a custom width of ${n(width.min)}–${n(width.max)} and height of ${n(height.min)}–${n(height.max)} px (a phone's, drawn at 2×, at most ${n(MAX_CAPTURE_PIXELS / 4)} pixels in all).`,
  }),
  headers: (rest) => ({
    // A header's name is no secret (its value would be): naming it says which row to fix.
    message: /^\.[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(rest) ? `The request header ${rest.slice(1)} cannot be sent.` : 'One of the request headers was refused.',
    advice:
      'Check the headers under Advanced: Host, Cookie, Content-Length and the headers a browser or proxy sets itself are refused, and cookies go under Cookies.',
  }),
  cookies: () => ({
    message: 'One of the cookies was refused.',
    advice:
      'Check the cookies under Advanced: a name has letters, digits and a few symbols only, and a value no spaces, quotes, commas, semicolons or backslashes (URL-encode it).',
  }),
  userAgent: () => ({
    message: 'The user agent was refused.',
    advice: `Under Advanced, use one line of at most ${MAX_USER_AGENT_LENGTH} characters, or clear it.`,
  }),
  css: () => ({ message: 'The CSS was refused.', advice: `Under Advanced, keep it to ${n(MAX_CSS_LENGTH)} characters, or clear it.` }),
  click: () => ({
    message: 'The click selector is not a CSS selector the page understands.',
    advice: 'Check it under Advanced; it looks like button.open-menu.',
  }),
  selector: () => ({
    message: 'The element selector is not a CSS selector the page understands.',
    advice: 'Check it under Advanced; it looks like main article.',
  }),
  waitForSelector: () => ({
    message: 'The wait-for selector is not a CSS selector the page understands.',
    advice: 'Check it under Advanced; it looks like #app .loaded.',
  }),
  hideSelectors: () => ({
    message: 'One of the hide selectors is not a CSS selector the page understands.',
    advice: 'Check them under Advanced; they look like .chat-widget, #newsletter.',
  }),
  delay: () => ({ message: 'The delay was refused.', advice: 'Under Advanced, use a whole number of milliseconds from 0 to 10,000.' }),
};

function notFound(failure: Failure, activity: Activity): Explanation {
  switch (activity) {
    case 'capture':
      // The message, not the hint, which quotes the page's selector (".click-me").
      if (/\bclick selector\b/i.test(failure.message)) {
        return { message: 'Nothing on the page matches the click selector.', advice: 'Check the click selector under Advanced, or clear it.' };
      }
      return {
        message: 'Nothing on the page matches the element selector.',
        advice: 'Check the selector under Advanced, or clear it to capture the whole page.',
      };
    case 'tweet':
      return { message: 'There is no tweet at that address: it may be deleted, private or mistyped.', advice: 'Check the link or id and try again.' };
    case 'save':
      return { message: 'That saved image is no longer in this workspace.', advice: 'Export again and save the new file.' };
    default:
      return { message: 'Easel could not find what the editor asked for.', advice: 'Reload the page and try again.' };
  }
}

function upstreamFailed(activity: Activity): Explanation {
  switch (activity) {
    case 'capture':
      return {
        message: 'The page could not be captured: the site failed to load or answered with an error.',
        advice: 'Check that the address opens in your browser, then try again.',
      };
    case 'tweet':
      return { message: 'X did not give Easel this tweet.', advice: 'Try again in a minute; if it keeps failing, check that the tweet is public.' };
    case 'media':
      return { message: 'X would not hand over one of the tweet’s images.', advice: 'Try loading the tweet again later.' };
    default:
      return { message: `A service Easel relies on failed, so it could not ${DOING[activity]}.`, advice: 'Try again in a minute.' };
  }
}

function invalidRequest(failure: Failure, activity: Activity): Explanation {
  if (failure.status === 413) {
    return { message: 'The picture is too large to send.', advice: 'Choose a smaller scale or a smaller crop, then try again.' };
  }
  if (failure.status === 409) {
    return { message: 'That saved image is still being stored or is in use.', advice: 'Wait a moment and try again.' };
  }
  if (activity === 'capture') {
    const named = refusedField(failure.message);
    const words = named && Object.hasOwn(CAPTURE_FIELDS, named.field) ? CAPTURE_FIELDS[named.field] : undefined;
    return (
      words?.(named!.rest) ?? {
        message: 'One of the capture options was refused.',
        advice: 'Check the options under Advanced; the details below name the field.',
      }
    );
  }
  return { message: `The editor sent a request Easel could not read, so it could not ${DOING[activity]}.`, advice: 'Reload the page and try again.' };
}

/** Reading releases as the signed-in user: who may, and a release gone meanwhile. */
const RELEASES: Readonly<Record<string, Explanation>> = {
  unauthorized: { message: 'You are no longer signed in, so Easel could not read the releases.', advice: 'Sign in again.' },
  forbidden: {
    message: 'Your role in this organization cannot read its releases.',
    advice: 'Choose another organization in the account menu, or ask an owner for the artifact:read permission.',
  },
  not_found: { message: 'That release is no longer in this workspace.', advice: 'Choose another release.' },
};

/** The sentence and the advice for a failure; every code of the API has one, and unknown ones a fallback. */
export function explain(failure: Failure, now: Date = new Date()): Explanation {
  const activity = activityOf(failure.path);
  const own = activity === 'sign-in' || activity === 'account' ? accountProblem(failure, activity) : undefined;
  if (own) return own;
  const extra = failure.extra ?? {};
  if (activity === 'releases' && Object.hasOwn(RELEASES, failure.code)) return RELEASES[failure.code]!;
  switch (failure.code) {
    case 'network_error':
      return { message: `Easel could not be reached, so it could not ${DOING[activity]}.`, advice: 'Check your internet connection and try again.' };
    case 'unexpected_response':
      return {
        message: `Something between this page and Easel answered instead of Easel (HTTP ${failure.status}).`,
        advice: 'Try again in a minute; a proxy or the network may be having trouble.',
      };
    case 'invalid_url':
      return activity === 'capture'
        ? invalidUrl(failure)
        : { message: 'One of the tweet’s images has an address Easel cannot load.', advice: 'Try another tweet.' };
    case 'invalid_request':
      return invalidRequest(failure, activity);
    case 'unsupported_value':
      return { message: 'The editor sent a choice Easel does not offer.', advice: 'Reload the page to get the current editor, then try again.' };
    case 'unauthorized':
      return { message: `You are not signed in, so Easel could not ${DOING[activity]}.`, advice: 'Sign in (top right), then try again.' };
    case 'forbidden':
      return {
        message: `You are not allowed to ${DOING[activity]}.`,
        advice: 'Ask an owner or an admin of the organization for the permission.',
      };
    case 'forbidden_domain':
      return {
        message: 'One of the tweet’s images is on a host Easel does not fetch from.',
        advice: 'Try another tweet; only images on X’s own media hosts are shown.',
      };
    case 'not_found':
      return notFound(failure, activity);
    case 'method_not_allowed':
      return { message: 'This editor and the API it talks to are out of step.', advice: 'Reload the page to get the current editor.' };
    case 'rate_limited':
      return activity === 'capture'
        ? { message: 'You have captured many pages in a short time.', advice: 'You can capture again when the countdown ends.' }
        : { message: `Too many requests from this address, so Easel did not ${DOING[activity]}.`, advice: `Try again ${inTime(failure.retryAfter)}.` };
    case 'workspace_feature_not_entitled':
      return {
        message: 'Your workspace’s plan does not include this.',
        advice:
          typeof extra.requiredPlan === 'string'
            ? `Ask an owner of the organization to move to the ${extra.requiredPlan} plan.`
            : 'Ask an owner of the organization to upgrade the plan.',
      };
    case 'workspace_quota_exceeded':
      return {
        message: 'Your workspace has used its quota for now.',
        advice: `Try again ${inTime(failure.retryAfter)}, or ask an owner to move to a larger plan.`,
      };
    case 'upstream_timeout':
      return activity === 'capture'
        ? {
            message: 'The page took too long to load.',
            advice: 'Try again; if it keeps happening, turn off Full page, or clear Wait for selector under Advanced if that element never shows.',
          }
        : { message: `Easel waited too long to ${DOING[activity]}.`, advice: 'Try again in a minute.' };
    case 'upstream_unavailable':
      return { message: `Easel is briefly unable to ${DOING[activity]}.`, advice: 'Try again in a minute.' };
    case 'upstream_failed':
      return upstreamFailed(activity);
    case 'internal_error':
      return {
        message: `Something went wrong inside Easel, so it could not ${DOING[activity]}.`,
        advice: `Try again; if it keeps happening, report it with the time, ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      };
    default:
      return { message: `Easel could not ${DOING[activity]}.`, advice: 'Try again; the details below say what the API answered.' };
  }
}
