/** The dialog before saving a capture whose page shows sensitive text: redact first, save anyway, or cancel. */
import { byId } from '../dom.ts';

export type SaveChoice = 'redact' | 'save' | 'cancel';

/** Asks, modally; Escape or a closed dialog is Cancel. */
export function askBeforeSaving(found: string): Promise<SaveChoice> {
  const dialog = byId('save-warning', HTMLDialogElement);
  byId('save-warning-text', HTMLParagraphElement).textContent =
    `The page shows ${found}, uncovered in this picture. Redact first covers them with boxes to review, and does not save; or save it as it is.`;
  const buttons: [SaveChoice, HTMLButtonElement][] = [
    ['redact', byId('save-warning-redact', HTMLButtonElement)],
    ['save', byId('save-warning-save', HTMLButtonElement)],
    ['cancel', byId('save-warning-cancel', HTMLButtonElement)],
  ];
  return new Promise((resolve) => {
    const controller = new AbortController();
    for (const [choice, button] of buttons) button.addEventListener('click', () => dialog.close(choice), { signal: controller.signal });
    dialog.addEventListener(
      'close',
      () => {
        controller.abort();
        const choice = buttons.find(([value]) => value === dialog.returnValue)?.[0];
        resolve(choice ?? 'cancel');
      },
      { signal: controller.signal },
    );
    dialog.returnValue = '';
    dialog.showModal();
  });
}
