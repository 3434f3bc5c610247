/**
 * Who the editor acts as: the session the browser holds (asked on every load, which answers
 * anonymous visits without a 401), its organizations, and the sign-in and account operations.
 * The cookie is HttpOnly: the page never sees a token.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { ApiError, type Api, type CallOptions } from './api.ts';

export interface Invitation {
  id: string;
  organization: { id: string; name: string };
  role: string;
  status: string;
  invitedBy: string | null;
  expiresAt: string;
}

export interface SignedIn {
  signedIn: true;
  user: { id: string; name: string; email: string };
  session: { id: string; method: string | null };
  activeOrganizationId: string | null;
  invitations: Invitation[];
}

export interface Bootstrap {
  organization: { id: string; name: string };
  organizations: { id: string; name: string; role: string; active: boolean }[];
  membership: { role: string; permissions: string[] };
}

export interface SessionItem {
  id: string;
  device: string;
  createdAt: string;
  lastSeenAt: string | null;
  current: boolean;
}

export interface PasskeyItem {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export type AccountState = 'checking' | 'signed-out' | 'signed-in' | 'unavailable';

/** Every account operation goes with the session cookie; a `body` is sent as JSON. */
const withSession = (method = 'GET', body?: unknown): CallOptions => ({
  method,
  credentials: 'session',
  ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
});

export class Account {
  state: AccountState = 'checking';
  session: SignedIn | undefined;
  /** The active organization's view; undefined while the user belongs to none. */
  bootstrap: Bootstrap | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly api: Api;

  constructor(api: Api) {
    this.api = api;
  }

  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Signed in with an organization whose role may upload. */
  canSave(): boolean {
    return this.bootstrap?.membership.permissions.includes('upload:sign') === true;
  }

  /** Asks who the browser's cookie signs in. */
  async refresh(): Promise<void> {
    try {
      const state = await this.api.json<SignedIn | { signedIn: false }>('/api/v1/auth/session', withSession());
      await this.adopt(state.signedIn ? state : undefined);
    } catch {
      // No CORS from another origin, or the API down: the page still edits and exports.
      this.state = 'unavailable';
      this.session = undefined;
      this.bootstrap = undefined;
      this.changed();
    }
  }

  private async adopt(session: SignedIn | undefined): Promise<void> {
    this.session = session;
    this.bootstrap = session?.activeOrganizationId ? await this.readBootstrap() : undefined;
    this.state = session ? 'signed-in' : 'signed-out';
    this.changed();
  }

  private async readBootstrap(): Promise<Bootstrap | undefined> {
    try {
      return await this.api.json<Bootstrap>('/api/v1/bootstrap', withSession());
    } catch (error) {
      // The active organization went away or is being deleted: the user picks another.
      if (error instanceof ApiError && error.status === 403) return undefined;
      throw error;
    }
  }

  async sendCode(email: string): Promise<{ email: string; expiresInSeconds: number }> {
    return this.api.json('/api/v1/auth/email-code', withSession('POST', { email }));
  }

  async verifyCode(email: string, code: string, name?: string): Promise<void> {
    const body = { email, code, ...(name ? { name } : {}) };
    await this.adopt(await this.api.json<SignedIn>('/api/v1/auth/email-code/verify', withSession('POST', body)));
  }

  /** Why passkeys cannot work on this page, or undefined when they can. */
  passkeyObstacle(): string | undefined {
    if (!browserSupportsWebAuthn()) return 'This browser has no passkeys: sign in with an e-mail code.';
    // Browsers refuse WebAuthn on an IP address; npm start serves the same editor on localhost.
    if (/^\d+\.\d+\.\d+\.\d+$|^\[/.test(location.hostname))
      return `Passkeys need a name, not an IP address: open ${location.protocol}//localhost${location.port ? `:${location.port}` : ''}${location.pathname}.`;
    return undefined;
  }

  async signInWithPasskey(): Promise<void> {
    const optionsJSON = await this.api.json<Parameters<typeof startAuthentication>[0]['optionsJSON']>('/api/v1/auth/passkey/options', withSession('POST'));
    const response = await startAuthentication({ optionsJSON });
    await this.adopt(await this.api.json<SignedIn>('/api/v1/auth/passkey/verify', withSession('POST', { response })));
  }

  async signOut(): Promise<void> {
    await this.api.call('/api/v1/auth/sign-out', withSession('POST'));
    await this.adopt(undefined);
  }

  /** The contract's activate operation: the session acts in that organization from now on. */
  async activate(organizationId: string): Promise<void> {
    this.bootstrap = await this.api.json<Bootstrap>(`/api/v1/organizations/${encodeURIComponent(organizationId)}/activate`, withSession('POST'));
    if (this.session) this.session = { ...this.session, activeOrganizationId: organizationId };
    this.changed();
  }

  /** Joins the invitation's organization and switches to it. */
  async accept(invitationId: string): Promise<void> {
    const accept = `/api/v1/auth/invitations/${encodeURIComponent(invitationId)}/accept`;
    const { organization } = await this.api.json<{ organization: { id: string } }>(accept, withSession('POST'));
    if (this.session) this.session = { ...this.session, invitations: this.session.invitations.filter((invitation) => invitation.id !== invitationId) };
    await this.activate(organization.id);
  }

  async sessions(): Promise<SessionItem[]> {
    return (await this.api.json<{ sessions: SessionItem[] }>('/api/v1/auth/sessions', withSession())).sessions;
  }

  async endSession(sessionId: string): Promise<void> {
    await this.api.call(`/api/v1/auth/sessions/${encodeURIComponent(sessionId)}`, withSession('DELETE'));
  }

  async endOtherSessions(): Promise<number> {
    return (await this.api.json<{ ended: number }>('/api/v1/auth/sessions', withSession('DELETE'))).ended;
  }

  async passkeys(): Promise<PasskeyItem[]> {
    return (await this.api.json<{ passkeys: PasskeyItem[] }>('/api/v1/auth/passkeys', withSession())).passkeys;
  }

  async addPasskey(): Promise<PasskeyItem> {
    const optionsJSON = await this.api.json<Parameters<typeof startRegistration>[0]['optionsJSON']>('/api/v1/auth/passkeys/options', withSession('POST'));
    const response = await startRegistration({ optionsJSON });
    return this.api.json<PasskeyItem>('/api/v1/auth/passkeys', withSession('POST', { response }));
  }

  async removePasskey(passkeyId: string): Promise<void> {
    await this.api.call(`/api/v1/auth/passkeys/${encodeURIComponent(passkeyId)}`, withSession('DELETE'));
  }
}
