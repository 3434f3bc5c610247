/** The Annotate toolbar: tools, the shared palette, stroke and text style, undo and redo with the steps left. */
import { icon } from './annotate-icons.ts';
import type { Annotator } from './annotate-tool.ts';
import { byId } from '../dom.ts';
import type { Editor } from '../editor.ts';
import type { Annotation } from '../model/edits.ts';

const KIND_NAMES: Record<Annotation['kind'], string> = {
  arrow: 'Arrow',
  line: 'Line',
  rect: 'Rectangle',
  pen: 'Pen stroke',
  ellipse: 'Ellipse',
  highlight: 'Highlight',
  blur: 'Blur',
  pixelate: 'Pixelation',
  solid: 'Solid box',
  text: 'Text',
  step: 'Step marker',
};

export function setupAnnotateToolbar(editor: Editor, annotator: Annotator): void {
  const toolbar = byId('annotate-toolbar', HTMLDivElement);
  // Narrow screens keep the toolbar in the sticky column: scrolling to a control must clear it.
  new ResizeObserver(() => document.documentElement.style.setProperty('--annotate-toolbar-height', `${toolbar.offsetHeight}px`)).observe(toolbar);
  for (const button of toolbar.querySelectorAll<HTMLElement>('[data-icon]')) {
    const svg = icon(button.dataset.icon ?? '');
    if (svg) button.prepend(svg);
  }

  const tools = [...toolbar.querySelectorAll<HTMLButtonElement>('button[data-tool]')];
  for (const button of tools) {
    button.addEventListener('click', () => editor.commands.run(`tool.${button.dataset.tool!}`));
  }
  const showTool = (tool: string) => {
    for (const button of tools) button.setAttribute('aria-pressed', String(button.dataset.tool === tool));
  };
  editor.onTool(showTool);
  showTool(editor.tool);

  const swatches = [...toolbar.querySelectorAll<HTMLButtonElement>('.annotate-swatch')];
  for (const swatch of swatches) {
    const colour = swatch.dataset.colour!;
    swatch.querySelector('span')!.style.backgroundColor = colour;
    swatch.addEventListener('click', () => annotator.setStyle({ color: colour }));
  }
  const custom = byId('annotate-colour', HTMLInputElement);
  custom.addEventListener('input', () => annotator.setStyle({ color: custom.value }));

  const width = byId('annotate-width', HTMLSelectElement);
  width.addEventListener('change', () => annotator.setStyle({ width: Number(width.value) }));
  const size = byId('annotate-size', HTMLSelectElement);
  size.addEventListener('change', () => annotator.setStyle({ size: Number(size.value) }));
  const bold = byId('annotate-bold', HTMLButtonElement);
  bold.addEventListener('click', () => annotator.setStyle({ weight: annotator.style.weight === 700 ? 400 : 700 }));

  const showStyle = () => {
    const { color, weight } = annotator.style;
    let known = false;
    for (const swatch of swatches) {
      const on = swatch.dataset.colour === color.toLowerCase();
      known ||= on;
      swatch.setAttribute('aria-pressed', String(on));
    }
    custom.value = color;
    custom.classList.toggle('annotate-custom-on', !known);
    selectValue(width, annotator.style.width);
    selectValue(size, annotator.style.size);
    bold.setAttribute('aria-pressed', String(weight === 700));
  };
  annotator.onUpdate(showStyle);
  showStyle();

  // Screen readers hear what got selected and what the keys do with it.
  const status = byId('annotate-status', HTMLParagraphElement);
  let announced: string | undefined;
  annotator.onUpdate(() => {
    const selection = annotator.selection();
    if (selection?.id === announced) return;
    announced = selection?.id;
    status.textContent = selection
      ? `${KIND_NAMES[selection.kind]}${selection.kind === 'step' ? ` ${selection.n}` : ''} selected: arrow keys move it, Delete removes it.`
      : '';
  });

  const undo = byId('annotate-undo', HTMLButtonElement);
  const redo = byId('annotate-redo', HTMLButtonElement);
  undo.addEventListener('click', () => editor.commands.run('undo'));
  redo.addEventListener('click', () => editor.commands.run('redo'));
  const showHistory = () => {
    const { undoSteps, redoSteps, limit } = editor.history;
    showSteps(undo, 'Undo', undoSteps, limit);
    showSteps(redo, 'Redo', redoSteps, limit);
  };
  editor.onChange(showHistory);
  showHistory();
}

/** A value the list lacks (a text resized by its handle) is added, so the list can show it. */
function selectValue(select: HTMLSelectElement, value: number): void {
  const text = String(value);
  if (![...select.options].some((option) => option.value === text)) {
    const unit = select.id === 'annotate-size' ? 'pt' : 'px';
    const option = new Option(`${text} ${unit}`, text);
    const after = [...select.options].find((entry) => Number(entry.value) > value);
    select.insertBefore(option, after ?? null);
  }
  select.value = text;
}

function showSteps(button: HTMLButtonElement, name: string, steps: number, limit: number): void {
  const label = `${name} (${steps}/${limit})`;
  button.setAttribute('aria-label', label);
  button.querySelector('.annotate-count')!.textContent = `${steps}/${limit}`;
  button.disabled = steps === 0;
}
