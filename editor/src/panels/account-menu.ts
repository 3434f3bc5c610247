/**
 * The account area of the top bar: Sign in, or the user and active organization with a menu to
 * switch organization (the contract's activate), accept invitations, manage passkeys and sessions,
 * and sign out. Passkeys and sessions are read when the menu opens.
 */
import { byId, clearProblem, h, setBusy, showProblem } from '../dom.ts';
import type { Account } from '../io/account.ts';
import type { SignInDialog } from './sign-in-dialog.ts';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' }) : 'never');

export function setupAccountMenu(account: Account, signIn: SignInDialog): void {
  const status = byId('account-status', HTMLParagraphElement);
  const signInButton = byId('sign-in-button', HTMLButtonElement);
  const menu = byId('account-menu', HTMLDetailsElement);
  const label = byId('account-label', HTMLSpanElement);
  const email = byId('account-email', HTMLParagraphElement);
  const switcher = byId('organization-switcher', HTMLSelectElement);
  const switcherField = byId('organization-field', HTMLDivElement);
  const invitations = byId('invitation-list', HTMLUListElement);
  const passkeys = byId('passkey-list', HTMLUListElement);
  const sessions = byId('session-list', HTMLUListElement);
  const menuStatus = byId('account-menu-status', HTMLParagraphElement);
  const problem = byId('account-error', HTMLDivElement);

  /** Runs a menu action with its button busy; its failure is said in the menu. */
  const act = (button: HTMLButtonElement, work: () => Promise<unknown>, done: string) => async () => {
    clearProblem(problem);
    setBusy(button, true);
    try {
      await work();
      menuStatus.textContent = done;
    } catch (error) {
      menuStatus.textContent = '';
      showProblem(problem, error instanceof DOMException ? new Error(`The passkey prompt ended without a passkey (${error.name}).`) : error);
    } finally {
      setBusy(button, false);
    }
  };

  const render = () => {
    const session = account.session;
    signInButton.hidden = account.state !== 'signed-out';
    menu.hidden = !session;
    status.hidden = session !== undefined || account.state === 'signed-out';
    status.textContent = account.state === 'checking' ? 'Checking sign-in…' : account.state === 'unavailable' ? 'Sign-in unavailable' : '';
    if (!session) {
      menu.open = false;
      // The next person to sign in on this page must not see this one's passkeys and sessions while theirs load.
      for (const list of [invitations, passkeys, sessions]) list.replaceChildren();
      menuStatus.textContent = '';
      return;
    }
    const organization = account.bootstrap?.organization.name;
    label.textContent = organization ? `${session.user.name} · ${organization}` : session.user.name;
    email.textContent = session.user.email;
    const organizations = account.bootstrap?.organizations ?? [];
    switcherField.hidden = organizations.length === 0;
    switcher.replaceChildren(...organizations.map((item) => h('option', { value: item.id, selected: item.active }, `${item.name} (${item.role})`)));
    invitations.replaceChildren(
      ...session.invitations.map((invitation) => {
        const accept = h('button', { type: 'button', 'data-invitation-id': invitation.id }, 'Accept');
        accept.addEventListener(
          'click',
          act(accept, () => account.accept(invitation.id), `You joined ${invitation.organization.name}.`),
        );
        return h('li', {}, `${invitation.organization.name}, as ${invitation.role}${invitation.invitedBy ? ` (from ${invitation.invitedBy})` : ''} `, accept);
      }),
    );
    byId('invitations-heading', HTMLHeadingElement).hidden = session.invitations.length === 0;
    // Someone with invitations and no organization yet is shown them at once.
    if (!organization && session.invitations.length > 0) menu.open = true;
  };

  const loadPasskeys = async () => {
    const items = await account.passkeys();
    passkeys.replaceChildren(
      ...items.map((passkey) => {
        const remove = h('button', { type: 'button', 'aria-label': `Remove ${passkey.name}` }, 'Remove');
        remove.addEventListener(
          'click',
          act(
            remove,
            async () => {
              await account.removePasskey(passkey.id);
              await loadPasskeys();
            },
            'Passkey removed.',
          ),
        );
        return h('li', { 'data-passkey-id': passkey.id }, `${passkey.name}, last used ${when(passkey.lastUsedAt)} `, remove);
      }),
    );
  };

  const loadSessions = async () => {
    const items = await account.sessions();
    sessions.replaceChildren(
      ...items.map((item) => {
        const entry = h(
          'li',
          { 'data-session-id': item.id },
          `${item.device}${item.current ? ' (this browser)' : ''}, signed in ${when(item.createdAt)}, last seen ${when(item.lastSeenAt)} `,
        );
        if (!item.current) {
          const end = h('button', { type: 'button' }, 'End');
          end.addEventListener(
            'click',
            act(
              end,
              async () => {
                await account.endSession(item.id);
                await loadSessions();
              },
              'Session ended.',
            ),
          );
          entry.append(end);
        }
        return entry;
      }),
    );
  };

  menu.addEventListener('toggle', () => {
    if (!menu.open) return;
    clearProblem(problem);
    menuStatus.textContent = '';
    Promise.all([loadPasskeys(), loadSessions()]).catch((error: unknown) => showProblem(problem, error));
  });

  signInButton.addEventListener('click', () => signIn.open());
  switcher.addEventListener('change', async () => {
    const chosen = account.bootstrap?.organizations.find((item) => item.id === switcher.value)?.name ?? '';
    clearProblem(problem);
    switcher.disabled = true;
    try {
      await account.activate(switcher.value);
      menuStatus.textContent = `Now working in ${chosen}.`;
    } catch (error) {
      showProblem(problem, error);
    } finally {
      switcher.disabled = false;
    }
  });
  const addPasskey = byId('add-passkey', HTMLButtonElement);
  addPasskey.addEventListener(
    'click',
    act(
      addPasskey,
      async () => {
        await account.addPasskey();
        await loadPasskeys();
      },
      'Passkey added: sign in with it next time.',
    ),
  );
  const endOthers = byId('end-other-sessions', HTMLButtonElement);
  endOthers.addEventListener(
    'click',
    act(
      endOthers,
      async () => {
        await account.endOtherSessions();
        await loadSessions();
      },
      'Signed out everywhere else.',
    ),
  );
  const signOut = byId('sign-out', HTMLButtonElement);
  signOut.addEventListener(
    'click',
    act(signOut, () => account.signOut(), 'Signed out.'),
  );

  account.onChange(render);
  render();
}
