/**
 * Consent walls no rule knows, worded in English, German, French and Spanish, with the pay-or-accept
 * choice of news sites: served by clean-pages.ts at /walls/<name> (and ?without, the same page
 * without its wall). Every control records its click in `window.consentClicks` and at /clicked.
 */

/** An accepted or subscribed wall leaves this square on the page, so a picture shows the click. */
export const ACCEPTED_COLOUR = { r: 255, g: 128, b: 0 } as const;

type Kind = 'accept' | 'subscribe' | 'reject' | 'close';

interface Control {
  kind: Kind;
  /** Its text; a close control shows × and is named by `label`. */
  text: string;
  label?: string;
  /** False: the click is recorded and nothing else happens, as on a broken wall. */
  works?: boolean;
}

/**
 * role=dialog with aria-modal, or a plain fixed box as many walls are; `blur` blurs the article
 * under it; `inside` names the element the wall is put in.
 */
interface Shape {
  dialog: boolean;
  blur?: boolean;
  inside?: string;
}

const BACKDROP = 'position:fixed;top:0;left:0;width:100%;height:100%;background:rgba(0,0,0,0.5);z-index:99998';
const WALL = 'position:fixed;left:25%;right:25%;top:200px;height:300px;background:rgb(255,0,255);z-index:99999;font:16px sans-serif';
const MARK = `position:absolute;left:0;top:100px;width:200px;height:200px;background:rgb(${ACCEPTED_COLOUR.r},${ACCEPTED_COLOUR.g},${ACCEPTED_COLOUR.b})`;

/** The wall's markup and script: a backdrop, the box with `text`, a scroll lock, and what each control does. */
function wall(text: string, controls: Control[], { dialog, blur = false, inside }: Shape): string {
  const role = dialog ? ' role="dialog" aria-modal="true"' : '';
  const buttons = controls
    .map((control, index) => {
      const name = control.label ? ` aria-label="${control.label}"` : '';
      return `<button data-control="${index}"${name}>${control.text}</button>`;
    })
    .join('');
  // Accepting or subscribing closes the wall and marks the page; refusing or closing closes it.
  const actions = JSON.stringify(controls.map((control) => (control.works === false ? 'nothing' : control.kind)));
  return `<div class="wall-backdrop" style="${BACKDROP}"></div>
    <div class="wall"${role} style="${WALL}"><p>${text}</p>${buttons}</div>
    <script>
      document.head.insertAdjacentHTML('beforeend', '<style>.wall-open{overflow:hidden}</style>');
      document.body.classList.add('wall-open');
      ${blur ? "document.querySelector('body > div').style.filter = 'blur(6px)';" : ''}
      ${inside ? `document.querySelector('${inside}').append(document.querySelector('.wall-backdrop'), document.querySelector('.wall'));` : ''}
      const actions = ${actions};
      for (const button of document.querySelectorAll('.wall button')) {
        button.addEventListener('click', () => {
          const said = button.getAttribute('aria-label') || button.textContent;
          (window.consentClicks ||= []).push(said);
          fetch('/clicked', { method: 'POST', body: said, keepalive: true });
          const action = actions[Number(button.dataset.control)];
          if (action === 'nothing') return;
          document.querySelector('.wall').remove();
          if (action === 'accept' || action === 'subscribe') document.body.insertAdjacentHTML('beforeend', '<div class="accepted" style="${MARK}"></div>');
        });
      }
    </script>`;
}

const accept = (text: string): Control => ({ kind: 'accept', text });
const subscribe = (text: string): Control => ({ kind: 'subscribe', text });
const reject = (text: string, works = true): Control => ({ kind: 'reject', text, works });
const close = (label: string, works = true): Control => ({ kind: 'close', text: '×', label, works });

/** What the walls say, in their own languages: pay-or-accept walls, and cookie dialogs. */
const PAY = {
  en: 'We and our partners use cookies to personalise ads and content. Accept and continue, or subscribe to read without ads.',
  de: 'Wir und unsere Partner verwenden Cookies, um Inhalte und Werbung zu personalisieren. Lesen Sie mit Werbung weiter oder werbefrei im Abo.',
  fr: 'Nous et nos partenaires utilisons des cookies pour personnaliser les publicités et le contenu. Acceptez, ou abonnez-vous pour lire sans publicité.',
  es: 'Nosotros y nuestros socios utilizamos cookies para personalizar anuncios y contenido. Acepte, o suscríbase para leer sin anuncios.',
};
const COOKIES = {
  en: 'We use cookies to personalise content and ads and to analyse our traffic.',
  de: 'Wir verwenden Cookies, um Inhalte und Anzeigen zu personalisieren und unsere Zugriffe zu analysieren.',
  fr: 'Nous utilisons des cookies pour mesurer notre audience et personnaliser les publicités.',
  es: 'Utilizamos cookies propias y de terceros para analizar el tráfico y personalizar los anuncios.',
};
const DIALOG = { dialog: true };
const PLAIN = { dialog: false };

/** An app whose page scrolls in a fixed shell, as some single-page apps do: page content, not a dialog. */
const SHELL = `<div class="app" style="position:fixed;inset:0;overflow:auto;background:rgb(0,0,120);z-index:5">
    <nav style="height:40px;background:rgb(0,120,120)"></nav><main><p style="color:#fff">An app in a fixed shell.</p></main></div>`;

/** Each wall by name: pay-or-accept walls, refusals that work or do nothing, close controls, necessary-only wordings. */
export const WALLS: Record<string, string> = {
  'pay-en': wall(PAY.en, [accept('Accept and continue'), subscribe('Subscribe')], DIALOG),
  'pay-de': wall(PAY.de, [accept('Akzeptieren und weiter'), subscribe('Abonnieren')], { dialog: true, blur: true }),
  'pay-fr': wall(PAY.fr, [accept('Accepter et continuer'), subscribe("S'abonner")], PLAIN),
  'pay-es': wall(PAY.es, [accept('Aceptar y continuar'), subscribe('Suscribirse')], PLAIN),
  'pay-close-fr': wall(PAY.fr, [accept('Accepter et continuer'), subscribe("S'abonner"), close('Fermer')], DIALOG),
  'reject-de': wall(COOKIES.de, [reject('Alle ablehnen'), accept('Alle akzeptieren')], { dialog: true, blur: true }),
  'reject-stuck-en': wall(COOKIES.en, [reject('Reject all', false), accept('Accept all')], DIALOG),
  'necessary-en': wall(COOKIES.en, [accept('Accept all'), reject('Necessary only')], PLAIN),
  'necessary-fr': wall(COOKIES.fr, [accept('Tout accepter'), reject('Uniquement les cookies nécessaires')], DIALOG),
  'necessary-es': wall(COOKIES.es, [accept('Aceptar todas'), reject('Solo necesarias')], PLAIN),
  'close-en': wall(COOKIES.en, [accept('Accept all'), close('Close')], DIALOG),
  'close-stuck-es': wall(COOKIES.es, [accept('Aceptar y continuar'), close('Cerrar', false)], DIALOG),
  'shell-stuck-en': wall(COOKIES.en, [reject('Reject all', false), accept('Accept all')], { dialog: true, inside: '.app' }),
};

/** Page content some walls are shown over, and kept in the page without its wall. */
export const WALL_CONTENT: Record<string, string> = { 'shell-stuck-en': SHELL };
