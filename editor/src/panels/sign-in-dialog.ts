/** The sign-in dialog: a passkey first, an e-mail code as the fallback, as GitHub and Linear offer them. */
import { byId, clearProblem, setBusy, showProblem } from '../dom.ts';
import type { Account } from '../io/account.ts';

export interface SignInDialog {
  /** Opens it, saying why when a `reason` is given. */
  open(reason?: string): void;
}

export function setupSignInDialog(account: Account): SignInDialog {
  const dialog = byId('sign-in-dialog', HTMLDialogElement);
  const reasonNote = byId('sign-in-reason', HTMLParagraphElement);
  const passkeyButton = byId('passkey-sign-in', HTMLButtonElement);
  const passkeyNote = byId('passkey-note', HTMLParagraphElement);
  const emailForm = byId('email-form', HTMLFormElement);
  const emailInput = byId('sign-in-email', HTMLInputElement);
  const codeForm = byId('code-form', HTMLFormElement);
  const codeSent = byId('code-sent', HTMLParagraphElement);
  const codeInput = byId('sign-in-code', HTMLInputElement);
  const nameInput = byId('sign-in-name', HTMLInputElement);
  const status = byId('sign-in-status', HTMLParagraphElement);
  const problem = byId('sign-in-error', HTMLDivElement);
  let email = '';

  const step = (which: 'email' | 'code') => {
    emailForm.hidden = which !== 'email';
    codeForm.hidden = which !== 'code';
    (which === 'email' ? emailInput : codeInput).focus();
  };

  const attempt = async (button: HTMLButtonElement, work: () => Promise<void>, done: string) => {
    clearProblem(problem);
    setBusy(button, true);
    try {
      await work();
      status.textContent = done;
      if (account.session) dialog.close();
    } catch (error) {
      status.textContent = '';
      showProblem(problem, error instanceof DOMException ? new Error(`The passkey prompt ended without a passkey (${error.name}).`) : error);
    } finally {
      setBusy(button, false);
    }
  };

  byId('sign-in-close', HTMLButtonElement).addEventListener('click', () => dialog.close());
  passkeyButton.addEventListener('click', () => attempt(passkeyButton, () => account.signInWithPasskey(), 'Signed in with a passkey.'));

  emailForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void attempt(
      byId('email-submit', HTMLButtonElement),
      async () => {
        const sent = await account.sendCode(emailInput.value.trim());
        email = sent.email;
        codeSent.textContent = `If ${email} can sign in to Easel, a 6-digit code is on its way. It works for ${Math.round(sent.expiresInSeconds / 60)} minutes.`;
        codeInput.value = '';
        step('code');
      },
      '',
    );
  });

  codeForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void attempt(
      byId('code-submit', HTMLButtonElement),
      () => account.verifyCode(email, codeInput.value.trim(), nameInput.value.trim() || undefined),
      'Signed in.',
    );
  });
  byId('code-back', HTMLButtonElement).addEventListener('click', () => step('email'));

  return {
    open(reason) {
      reasonNote.textContent = reason ?? '';
      reasonNote.hidden = !reason;
      status.textContent = '';
      clearProblem(problem);
      const obstacle = account.passkeyObstacle();
      passkeyButton.disabled = obstacle !== undefined;
      passkeyNote.textContent = obstacle ?? 'Use a passkey you added to your account on this device or a synced one.';
      if (!dialog.open) dialog.showModal();
      step('email');
    },
  };
}
