/**
 * A shot's diff picture in a dialog: changed pixels red over a faded copy of the new picture.
 * It is drawn on a canvas from the fetched bytes, as the page's CSP allows no image from the bucket.
 */
import { byId, clearProblem, showProblem } from '../dom.ts';

/** Wide enough to read a page's changes; a larger diff is drawn scaled down to it. */
const DRAWN_WIDTH = 1280;

export class DiffDialog {
  private readonly dialog = byId('diff-dialog', HTMLDialogElement);
  private readonly title = byId('diff-title', HTMLHeadingElement);
  private readonly caption = byId('diff-caption', HTMLParagraphElement);
  private readonly canvas = byId('diff-canvas', HTMLCanvasElement);
  private readonly status = byId('diff-status', HTMLParagraphElement);
  private readonly problem = byId('diff-error', HTMLDivElement);
  /** The diff being shown; one asked for later wins. */
  private showing = 0;

  constructor() {
    byId('diff-close', HTMLButtonElement).addEventListener('click', () => this.dialog.close());
    this.dialog.addEventListener('close', () => {
      this.showing += 1;
    });
  }

  /** Opens at once, sized for the picture, and draws it once `picture` hands the bytes over. */
  async show(name: string, caption: string, size: { width: number; height: number }, picture: () => Promise<Blob>): Promise<void> {
    const turn = ++this.showing;
    const scale = Math.min(1, DRAWN_WIDTH / size.width);
    const width = Math.max(1, Math.round(size.width * scale));
    const height = Math.max(1, Math.round(size.height * scale));
    this.title.textContent = `What changed in ${name}`;
    this.caption.textContent = caption;
    Object.assign(this.canvas, { width, height });
    this.canvas.getContext('2d')?.clearRect(0, 0, width, height);
    this.canvas.setAttribute('aria-label', `The diff of ${name}: changed pixels in red over a faded copy of the new picture`);
    delete this.canvas.dataset.drawn;
    clearProblem(this.problem);
    this.status.textContent = 'Loading the diff…';
    if (!this.dialog.open) this.dialog.showModal();
    try {
      const bitmap = await createImageBitmap(await picture(), { resizeWidth: width, resizeHeight: height, resizeQuality: 'high' });
      if (turn !== this.showing) return bitmap.close();
      this.canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
      bitmap.close();
      this.canvas.dataset.drawn = 'true';
      this.status.textContent =
        scale < 1 ? `Drawn at ${Math.round(scale * 100)} % of its ${size.width} × ${size.height} px.` : `${size.width} × ${size.height} px.`;
    } catch (error) {
      if (turn !== this.showing) return;
      this.status.textContent = 'The diff could not be shown.';
      showProblem(this.problem, error);
    }
  }
}
