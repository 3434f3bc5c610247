/** A verified delivery's event, read with its provider's schema: a release to publish or update, or what is ignored and why. */
import * as v from 'valibot';
import { InvalidRequestError } from '#shared/errors.ts';
import type { SourceAppPrincipal } from '#shared/identity/principal.ts';
import { isHttpUrl } from '#shared/schemas/common.ts';
import { issuePath } from '#shared/schemas/issue-path.ts';
import { GitHubReleaseEvent, STANDARD_RELEASE_TYPES, StandardEventType, StandardReleaseEvent } from '#shared/schemas/intake.ts';

export interface ExternalRelease {
  /** The provider's id: the same id lands on the same draft. */
  id: string;
  /** Its name, or its tag where it has none. */
  name: string;
  /** Markdown. */
  notes: string;
  url?: string;
  /** Pages the event names besides the notes' links. */
  urls: string[];
}

export type IntakeEvent = { event: string; action: 'publish' | 'update'; release: ExternalRelease } | { event: string; action: 'ignore'; reason: string };

function parse<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, value, { abortPipeEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const field = issuePath(issue) || 'body';
  throw new InvalidRequestError(`Invalid ${field}`, `${field}: ${issue.message}`);
}

const GITHUB_ACTIONS: Record<string, 'publish' | 'update'> = { published: 'publish', edited: 'update' };

function githubEvent(name: string | undefined, body: Record<string, unknown>): IntakeEvent {
  const action = typeof body.action === 'string' ? body.action : undefined;
  const event = `${name ?? 'unnamed'}${action ? `.${action}` : ''}`;
  if (name !== 'release') return { event, action: 'ignore', reason: `only release events are taken in, not ${name ?? 'one without X-GitHub-Event'}` };
  const mapped = action !== undefined && Object.hasOwn(GITHUB_ACTIONS, action) ? GITHUB_ACTIONS[action]! : undefined;
  if (!mapped) return { event, action: 'ignore', reason: `only the release actions published and edited are taken in, not ${action ?? 'none'}` };
  const { release } = parse(GitHubReleaseEvent, body);
  const url = release.html_url && isHttpUrl(release.html_url) ? release.html_url : undefined;
  return {
    event,
    action: mapped,
    release: { id: release.id, name: release.name?.trim() || release.tag_name, notes: release.body ?? '', ...(url ? { url } : {}), urls: [] },
  };
}

function standardEvent(body: Record<string, unknown>): IntakeEvent {
  const { type } = parse(StandardEventType, body);
  if (!(STANDARD_RELEASE_TYPES as readonly string[]).includes(type)) {
    return { event: type, action: 'ignore', reason: `only ${STANDARD_RELEASE_TYPES.join(' and ')} are taken in, not ${type}` };
  }
  const { data } = parse(StandardReleaseEvent, body);
  return {
    event: type,
    action: type === 'release.published' ? 'publish' : 'update',
    release: { id: data.id, name: data.name.trim() || data.id, notes: data.notes ?? '', ...(data.url ? { url: data.url } : {}), urls: data.urls ?? [] },
  };
}

/** 400 naming the field when a release event lacks what a draft needs; other events are ignored unread. */
export function readEvent(delivery: Pick<SourceAppPrincipal, 'signing' | 'event'>, body: Record<string, unknown>): IntakeEvent {
  return delivery.signing === 'github' ? githubEvent(delivery.event, body) : standardEvent(body);
}
