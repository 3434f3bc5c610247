/** The Compose panel and the Export panel's format and quality: controls built from the presets. */
import { setupBackgroundImage } from './background-image.ts';
import { cssGradient, gradientOf } from '../render/backgrounds.ts';
import { byId, fillSelect, h, radioValue, setRadio } from '../dom.ts';
import type { Editor } from '../editor.ts';
import {
  CUSTOM_GRADIENT,
  FORMATS,
  FRAMES,
  GRADIENTS,
  LIMITS,
  QUALITIES,
  RATIOS,
  SCALE_SETTINGS,
  scaleNote,
  scaleSettingName,
  SHADOWS,
} from '../model/presets.ts';
import { DEFAULT_SETTINGS, settingsFrom } from '../model/settings.ts';
import type { Settings } from '../model/settings.ts';

/** Binds the controls to the editor's settings; every input redraws at once. */
export function setupComposePanel(editor: Editor): void {
  const form = byId('compose', HTMLFormElement);
  const gradients = byId('gradients', HTMLFieldSetElement);
  const scales = byId('scales', HTMLFieldSetElement);
  const scaleLine = byId('scale-note', HTMLParagraphElement);
  const color = byId('solid-color', HTMLInputElement);
  const groups = { gradient: byId('bg-gradient', HTMLDivElement), solid: byId('bg-solid', HTMLDivElement), image: byId('bg-image', HTMLDivElement) };
  const gradientFrom = byId('gradient-from', HTMLInputElement);
  const gradientTo = byId('gradient-to', HTMLInputElement);
  const gradientAngle = byId('gradient-angle', HTMLInputElement);
  const gradientAngleValue = byId('gradient-angle-value', HTMLOutputElement);
  const blur = byId('bg-blur', HTMLInputElement);
  const blurValue = byId('bg-blur-value', HTMLOutputElement);
  const padding = byId('padding', HTMLInputElement);
  const radius = byId('radius', HTMLInputElement);
  const paddingValue = byId('padding-value', HTMLOutputElement);
  const radiusValue = byId('radius-value', HTMLOutputElement);
  const shadow = byId('shadow', HTMLSelectElement);
  const frame = byId('frame', HTMLSelectElement);
  const ratio = byId('ratio', HTMLSelectElement);
  const format = byId('format', HTMLSelectElement);
  const quality = byId('quality', HTMLSelectElement);
  const linkStatus = byId('link-status', HTMLParagraphElement);

  // Each swatch is a real radio button (arrow keys move between them) with a visible name.
  const swatch = (id: string, name: string, background: string) => {
    const colour = h('span', { class: 'swatch-colour', 'aria-hidden': 'true' });
    // CSSOM, not a style attribute: the CSP allows no inline styles.
    colour.style.backgroundImage = background;
    gradients.append(
      h('label', { class: 'swatch' }, h('input', { type: 'radio', name: 'gradient', value: id }), colour, h('span', { class: 'swatch-name' }, name)),
    );
    return colour;
  };
  for (const gradient of GRADIENTS) swatch(gradient.id, gradient.name, cssGradient(gradient));
  const customSwatch = swatch(CUSTOM_GRADIENT, 'Custom', '');
  // Auto is a choice of its own: shown as the scale it stands for, a form read back would fix it there.
  const scaleLabels = SCALE_SETTINGS.map((scale) => {
    const label = h('span', {}, scaleSettingName(scale));
    scales.append(h('label', {}, h('input', { type: 'radio', name: 'scale', value: String(scale) }), label));
    return [scale, label] as const;
  });
  fillSelect(shadow, SHADOWS);
  fillSelect(frame, FRAMES);
  fillSelect(ratio, RATIOS);
  fillSelect(format, FORMATS);
  fillSelect(quality, QUALITIES);
  for (const [input, limits] of [
    [padding, LIMITS.padding],
    [radius, LIMITS.radius],
    [gradientAngle, LIMITS.gradientAngle],
    [blur, LIMITS.blur],
  ] as const) {
    input.min = String(limits.min);
    input.max = String(limits.max);
    input.step = String(limits.step);
  }

  const show = (settings: Settings) => {
    setRadio(form, 'background', settings.background);
    // Only the chosen kind's controls show, as in other editors.
    for (const [kind, group] of Object.entries(groups)) group.hidden = kind !== settings.background;
    setRadio(form, 'gradient', settings.gradient);
    customSwatch.style.backgroundImage = cssGradient(gradientOf({ ...settings, gradient: CUSTOM_GRADIENT }));
    gradientFrom.value = settings.gradientFrom;
    gradientTo.value = settings.gradientTo;
    gradientAngle.value = String(settings.gradientAngle);
    gradientAngleValue.value = `${settings.gradientAngle}°`;
    blur.value = String(settings.blur);
    blurValue.value = `${settings.blur} px`;
    setRadio(form, 'scale', String(settings.scale));
    scaleLine.textContent = scaleNote(settings.scale, editor.source?.density, editor.exportSize());
    color.value = settings.color;
    padding.value = String(settings.padding);
    radius.value = String(settings.radius);
    paddingValue.value = `${settings.padding} px`;
    radiusValue.value = `${settings.radius} px`;
    shadow.value = settings.shadow;
    frame.value = settings.frame;
    ratio.value = settings.ratio;
    format.value = settings.format;
    quality.value = settings.quality;
  };

  /** Through the same validation as a shared link. */
  const read = (): Settings => {
    const params = new URLSearchParams({
      bg: radioValue(form, 'background') ?? '',
      g: radioValue(form, 'gradient') ?? '',
      c: color.value,
      g1: gradientFrom.value,
      g2: gradientTo.value,
      ga: gradientAngle.value,
      bl: blur.value,
      pad: padding.value,
      r: radius.value,
      sh: shadow.value,
      fr: frame.value,
      ar: ratio.value,
      x: radioValue(form, 'scale') ?? '',
      f: format.value,
      q: quality.value,
    });
    return settingsFrom(params, editor.settings);
  };

  const onInput = (event: Event) => {
    const target = event.target as HTMLInputElement;
    // The image itself is no setting: background-image.ts takes it.
    if (target.type === 'file') return;
    const next = read();
    // Picking a gradient or a colour is choosing that kind of background.
    if (target.name === 'gradient') next.background = 'gradient';
    if (target === color) next.background = 'solid';
    if (target === gradientFrom || target === gradientTo || target === gradientAngle) {
      next.background = 'gradient';
      next.gradient = CUSTOM_GRADIENT;
    }
    // A drag of one slider, or typing in one field, undoes as one step.
    editor.update(next, { merge: target.name || target.id });
    linkStatus.textContent = '';
  };
  form.addEventListener('input', onInput);
  format.addEventListener('input', onInput);
  quality.addEventListener('input', onInput);

  editor.onChange(() => {
    // Undo and redo change the settings from outside the panel.
    show(editor.settings);
    for (const [scale, label] of scaleLabels) {
      const size = editor.exportSize(scale);
      label.title = size ? `${size.width} × ${size.height} px` : '';
    }
  });

  window.addEventListener('hashchange', () => {
    editor.update(settingsFrom(new URLSearchParams(location.hash.slice(1)), editor.settings));
  });

  byId('reset-settings', HTMLButtonElement).addEventListener('click', () => {
    editor.update({ ...DEFAULT_SETTINGS });
    linkStatus.textContent = 'Settings reset to the defaults.';
  });

  byId('copy-link', HTMLButtonElement).addEventListener('click', () => {
    const link = editor.link();
    navigator.clipboard
      .writeText(link)
      .then(() => {
        linkStatus.textContent = 'Link copied: it opens the editor with these settings.';
      })
      .catch(() => {
        // Clipboard access can be refused; the address bar holds the same link.
        linkStatus.textContent = `Copy this link: ${link}`;
      });
  });

  show(editor.settings);
  setupBackgroundImage(editor);
}
