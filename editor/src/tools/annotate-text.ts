/** Typing a text annotation: a field over the preview where the composition draws the text, as one undo step. */
import { ANNOTATION_FONT, TEXT_LINE_HEIGHT, textFont } from '../model/annotation-geometry.ts';
import type { Measure } from '../model/annotation-geometry.ts';
import type { Editor } from '../editor.ts';
import { addAnnotation, findAnnotation, removeAnnotation, replaceAnnotation } from '../model/editor-model.ts';
import type { TextAnnotation } from '../model/edits.ts';

interface Session {
  id: string;
  input: HTMLTextAreaElement;
  /** What Escape goes back to; undefined for a new text. */
  original: TextAnnotation | undefined;
  base: TextAnnotation;
}

/** One text field at a time; `done` hears which annotation is left when it closes (undefined when none). */
export class TextField {
  private session: Session | undefined;
  private readonly editor: Editor;
  private readonly stage: HTMLElement;
  private readonly overlay: HTMLElement;
  private readonly measure: Measure;
  private readonly done: (id: string | undefined) => void;

  constructor(editor: Editor, stage: HTMLElement, overlay: HTMLElement, measure: Measure, done: (id: string | undefined) => void) {
    this.editor = editor;
    this.stage = stage;
    this.overlay = overlay;
    this.measure = measure;
    this.done = done;
  }

  get open(): boolean {
    return this.session !== undefined;
  }

  /** Double-click, Enter or the text tool; the composition draws the text as it is typed. */
  edit(annotation: TextAnnotation): void {
    this.commit();
    const existing = findAnnotation(this.editor.edits, annotation.id) as TextAnnotation | undefined;
    const input = document.createElement('textarea');
    input.className = 'annotate-text-input';
    input.setAttribute('aria-label', 'Annotation text (Enter to finish, Shift+Enter for a new line, Escape to cancel)');
    input.spellcheck = false;
    input.value = existing?.text ?? '';
    input.rows = 1;
    this.stage.append(input);
    this.session = { id: annotation.id, input, original: existing, base: existing ?? annotation };
    input.addEventListener('input', () => this.typed());
    // Its keys are the field's, never the page's shortcuts.
    input.addEventListener('keydown', (event) => {
      event.stopPropagation();
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.commit();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        this.cancel();
      }
    });
    input.addEventListener('blur', () => this.commit());
    this.place();
    input.focus({ preventScroll: true });
    input.setSelectionRange(input.value.length, input.value.length);
  }

  private typed(): void {
    const session = this.session;
    if (!session) return;
    const value = session.input.value;
    const edits = this.editor.edits;
    const current = findAnnotation(edits, session.id) as TextAnnotation | undefined;
    if (value === '') {
      if (current) this.editor.draft(removeAnnotation(edits, session.id));
    } else {
      this.editor.draft(current ? replaceAnnotation(edits, { ...current, text: value }) : addAnnotation(edits, { ...session.base, text: value }));
    }
    this.place();
  }

  private close(keep: boolean): Session | undefined {
    const session = this.session;
    if (!session) return undefined;
    this.session = undefined;
    this.editor.endDraft(keep);
    session.input.remove();
    this.overlay.classList.add('annotate-pointer-focus');
    this.overlay.focus({ preventScroll: true });
    return session;
  }

  /** An emptied text is removed; what remains is selected. */
  commit(): void {
    const session = this.close(true);
    if (session) this.done(findAnnotation(this.editor.edits, session.id) ? session.id : undefined);
  }

  /** Escape: the text as it was, and no undo step. */
  cancel(): void {
    const session = this.close(false);
    if (session) this.done(session.original ? session.id : undefined);
  }

  /** The field sits where the composition draws the text, at the preview's scale. */
  place(): void {
    const session = this.session;
    const view = this.editor.currentView();
    if (!session || !view) return;
    const annotation = (findAnnotation(this.editor.edits, session.id) as TextAnnotation | undefined) ?? session.base;
    const { input } = session;
    const preview = this.overlay.getBoundingClientRect();
    const stage = this.stage.getBoundingClientRect();
    const size = annotation.size * view.scale;
    const lines = input.value.split('\n');
    const width = Math.max(...lines.map((line) => this.measure(line, textFont(annotation)))) * view.scale;
    input.style.left = `${preview.x - stage.x + view.box.x + (annotation.x - view.crop.x) * view.scale}px`;
    input.style.top = `${preview.y - stage.y + view.box.y + (annotation.y - view.crop.y) * view.scale}px`;
    input.style.font = `${annotation.weight} ${size}px/${TEXT_LINE_HEIGHT} ${ANNOTATION_FONT}`;
    input.style.width = `${width + size}px`;
    input.style.height = `${lines.length * size * TEXT_LINE_HEIGHT}px`;
    input.style.caretColor = annotation.color;
  }
}
